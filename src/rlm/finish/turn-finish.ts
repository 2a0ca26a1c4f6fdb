/**
 * A turn's finish and nudges: the FINAL / FINAL_VAR / answer-dict judgement,
 * the decision recorded for it, and the nudges the turn ends with (a refused
 * finish, a reply that did nothing, a due decompose hint).
 */
import type { FinalDecision } from '../../trace/events.js';
import type { ActiveRlm } from '../loop/rlm-state.js';
import { type Nudge, rejectNudge } from '../prompts/nudges.js';
import type { ParsedTurn } from '../protocols/protocol.js';
import { type JudgeContext, type Judgement, judgeAnswerDict, judgeFinal } from './judge.js';
import { decomposeNudge } from './nudges.js';

export interface TurnFinish {
  /** The finish decision to record (null when the turn offered none). */
  decision: FinalDecision | null;
  /** The nudge for a refused finish, if any (also in `nudges`). */
  finalNudge: Nudge | null;
  /** Every nudge of the turn, in order. */
  nudges: Nudge[];
}

/** What the turn did before its finish is judged. */
export interface TurnActions {
  /** The reply as the protocol read it. */
  parsed: ParsedTurn;
  /** The reply had code, which has now run (or was skipped). */
  hadCode: boolean;
  /** Its executions took the run of failures to max_errors. */
  errorLimit: boolean;
}

/**
 * Judges the turn's finish after its code ran and collects its nudges; a
 * ready answer dict is read only when code ran and the error limit was not
 * reached.
 */
export async function finishTurn(
  rlm: ActiveRlm,
  { parsed, hadCode, errorLimit }: TurnActions,
): Promise<TurnFinish> {
  const { conversation, sandbox } = rlm;
  const judgeCtx: JudgeContext = {
    hadCode,
    planRejected: conversation.planRejected,
    reverified: conversation.reverified,
    wasPrinted: (value) => wasPrinted(conversation.shown, value),
    reader: sandbox,
  };
  let judgement: Judgement | null = null;
  if (parsed.final) judgement = await judgeFinal(parsed.final, judgeCtx);
  if (!judgement?.decision.accepted && hadCode && !errorLimit && conversation.protocol.answerDict) {
    const answer = await sandbox.readAnswer();
    if (answer.ready) judgement = judgeAnswerDict(answer, judgeCtx);
  }
  let decision: FinalDecision | null = judgement?.decision ?? null;
  if (decision && parsed.finalKind && decision.kind !== 'answer_dict') {
    decision = { ...decision, kind: parsed.finalKind };
  }
  const { finalNudge, nudges } = turnNudges(rlm, { parsed, hadCode, judgement, decision });
  return { decision, finalNudge, nudges };
}

/** The nudges a turn ends with, given what it did and how its finish was judged. */
function turnNudges(
  rlm: ActiveRlm,
  {
    parsed,
    hadCode,
    judgement,
    decision,
  }: Pick<TurnActions, 'parsed' | 'hadCode'> & {
    judgement: Judgement | null;
    decision: FinalDecision | null;
  },
): { finalNudge: Nudge | null; nudges: Nudge[] } {
  const { conversation, sandbox } = rlm;
  const { settings } = rlm.tree;
  const nudges: Nudge[] = [...parsed.nudges];
  let finalNudge: Nudge | null = null;
  if (judgement?.reject) {
    conversation.stats.rejectedFinals++;
    if (judgement.reject === 'plan_like') conversation.planRejected = true;
    if (judgement.reject === 'unverified') conversation.reverified = true;
    finalNudge = rejectNudge(conversation.protocol.wording, judgement.reject, {
      ...(decision?.variable ? { variable: decision.variable } : {}),
      ...(judgement.chars !== undefined ? { chars: judgement.chars } : {}),
    });
    nudges.push(finalNudge);
  } else if (!decision && !hadCode && !parsed.acted) {
    conversation.stats.protocolSlips++;
    nudges.push(parsed.noAction);
  }
  if (conversation.decomposeDue && !conversation.decomposeGiven) {
    nudges.push(
      decomposeNudge(settings.version, {
        promptChars: conversation.decomposeDue.promptChars,
        contextChars: sandbox.contextShape.totalChars,
        perCallChars: settings.subcallChars,
      }),
    );
    conversation.decomposeGiven = true;
    conversation.decomposeDue = null;
  }
  conversation.stats.nudges += nudges.length;
  return { finalNudge, nudges };
}

/** Whether the model has seen this value in some REPL output of the run. */
function wasPrinted(shown: string[], value: string): boolean {
  const probe = value.trim().slice(0, 500);
  if (probe === '') return true;
  return shown.some((out) => out.includes(probe));
}
