export {
  createPythonSandbox,
  isSafeEnvName,
  type PythonSandbox,
  type PythonSandboxOptions,
  workerScriptPath,
} from './python/index.js';
export type * from './sandbox.js';
