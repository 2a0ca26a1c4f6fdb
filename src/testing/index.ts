export type { MockFault, MockPolicy, MockReply, MockRequest } from './mock-policy.js';
export {
  type MockCounters,
  type MockServer,
  type MockServerOptions,
  startMockServer,
} from './mock-server.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReplies,
  type ScriptedReply,
} from './scripted-model.js';
