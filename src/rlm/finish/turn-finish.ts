/**
 * A turn's finish and nudges: the FINAL / FINAL_VAR / answer-dict judgement,
 * the decision recorded for it, and the nudges the turn ends with (a refused
 * finish, a reply that did nothing, a due decompose hint).
 */
import type { FinalDecision } from '../../trace/events.js';
import type { LoopRun } from '../loop/rlm-state.js';
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

/**
 * Judges the turn's finish after its code ran (`hadCode`) and collects its
 * nudges; a ready answer dict is read only when code ran and the error limit
 * was not reached.
 */
export async function finishTurn(
  run: LoopRun,
  parsed: ParsedTurn,
  hadCode: boolean,
  errorLimit: boolean,
): Promise<TurnFinish> {
  const { state, sandbox } = run;
  const judgeCtx: JudgeContext = {
    hadCode,
    planRejected: state.planRejected,
    reverified: state.reverified,
    wasPrinted: (value) => wasPrinted(state.shown, value),
    reader: sandbox,
  };
  let judgement: Judgement | null = null;
  if (parsed.final) judgement = await judgeFinal(parsed.final, judgeCtx);
  if (!judgement?.decision.accepted && hadCode && !errorLimit && state.protocol.answerDict) {
    const answer = await sandbox.readAnswer();
    if (answer.ready) judgement = judgeAnswerDict(answer, judgeCtx);
  }
  let decision: FinalDecision | null = judgement?.decision ?? null;
  if (decision && parsed.finalKind && decision.kind !== 'answer_dict') {
    decision = { ...decision, kind: parsed.finalKind };
  }
  const { finalNudge, nudges } = turnNudges(run, parsed, judgement, decision, hadCode);
  return { decision, finalNudge, nudges };
}

function turnNudges(
  run: LoopRun,
  parsed: ParsedTurn,
  judgement: Judgement | null,
  decision: FinalDecision | null,
  hadCode: boolean,
): { finalNudge: Nudge | null; nudges: Nudge[] } {
  const { state, sandbox } = run;
  const s = run.shared.settings;
  const nudges: Nudge[] = [...parsed.nudges];
  let finalNudge: Nudge | null = null;
  if (judgement?.reject) {
    state.stats.rejectedFinals++;
    if (judgement.reject === 'plan_like') state.planRejected = true;
    if (judgement.reject === 'unverified') state.reverified = true;
    finalNudge = rejectNudge(state.protocol.wording, judgement.reject, {
      ...(decision?.variable ? { variable: decision.variable } : {}),
      ...(judgement.chars !== undefined ? { chars: judgement.chars } : {}),
    });
    nudges.push(finalNudge);
  } else if (!decision && !hadCode && !parsed.acted) {
    state.stats.protocolSlips++;
    nudges.push(parsed.noAction);
  }
  if (state.decomposeDue && !state.decomposeGiven) {
    nudges.push(
      decomposeNudge(s.version, {
        promptChars: state.decomposeDue.promptChars,
        contextChars: sandbox.contextShape.totalChars,
        perCallChars: s.subcallChars,
      }),
    );
    state.decomposeGiven = true;
    state.decomposeDue = null;
  }
  state.stats.nudges += nudges.length;
  return { finalNudge, nudges };
}

/** Whether the model has seen this value in some REPL output of the run. */
function wasPrinted(shown: string[], value: string): boolean {
  const probe = value.trim().slice(0, 500);
  if (probe === '') return true;
  return shown.some((out) => out.includes(probe));
}
