export type { MockFault, MockPolicy, MockReply, MockRequest } from './mock-policy.js';
export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReplies,
  type ScriptedReply,
} from './scripted-model.js';
