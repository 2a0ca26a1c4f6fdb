export {
  ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReplies,
  type ScriptedReply,
} from './scripted-model.js';
