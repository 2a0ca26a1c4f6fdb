/**
 * The longest answer a finish may return (characters). A longer one is refused
 * with a nudge rather than cut without a word: the model can still shorten it.
 */
export const MAX_ANSWER_CHARS = 10_000_000;
