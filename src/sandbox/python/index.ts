export {
  createPythonSandbox,
  type PythonSandboxOptions,
  workerScriptPath,
} from './create-python-sandbox.js';
export type { PythonSandbox } from './python-sandbox.js';
export { isSafeEnvName } from './worker-env.js';
