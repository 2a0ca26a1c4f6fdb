// One row of a run's timeline: a turn with its content, code, outputs and
// sub-calls, or a non-turn row (a forced finish, the final record, a new
// completion of an upstream conversation, a line that could not be read).
(() => {
  window.Reclamo = window.Reclamo || {};
  const R = window.Reclamo;
  const { h } = R;
  const SUBCALLS_SHOWN = 12;
  const FENCE = /```([\w+-]*)[^\n]*\n([\s\S]*?)(?:```|$(?![\s\S]))/g;

  function timingText(summary) {
    if (summary.ms === null) return '';
    const parts = [];
    if (summary.modelMs !== null) parts.push(`model ${R.ms(summary.modelMs)}`);
    if (summary.replMs !== null) parts.push(`REPL ${R.ms(summary.replMs)}`);
    if (summary.harnessMs !== null) parts.push(`harness ${R.ms(summary.harnessMs)}`);
    return `${R.ms(summary.ms)}${parts.length ? ` (${parts.join(' · ')})` : ''}`;
  }

  function turnHead(summary, detail) {
    const bits = [h('span', { class: 'turn-no' }, `Turn ${summary.turn}`)];
    if (summary.at) bits.push(h('span', { class: 'muted' }, R.when(summary.at)));
    const timing = timingText(summary);
    if (timing) bits.push(h('span', { class: 'timing' }, timing));
    if (summary.inputTokens !== null) {
      bits.push(
        h(
          'span',
          { class: 'tokens' },
          `${R.tokens(detail?.usage || { inputTokens: summary.inputTokens, outputTokens: summary.outputTokens })} tokens`,
        ),
      );
    }
    if (detail?.model || detail?.endpoint) {
      bits.push(
        h('span', { class: 'muted' }, [detail.model, detail.endpoint].filter(Boolean).join(' @ ')),
      );
    }
    if (detail?.finishReason && detail.finishReason !== 'stop')
      bits.push(R.badge(`finish: ${detail.finishReason}`, 'warn'));
    if (detail?.cut)
      bits.push(
        R.badge(
          `reply cut: ${detail.cut.replace(/_/g, ' ')}`,
          'warn',
          'The reply hit the output limit; the harness handled it as shown.',
        ),
      );
    if (summary.final) bits.push(R.badge('final answer', 'ok'));
    if (detail?.final && !detail.final.accepted) bits.push(R.badge('final rejected', 'bad'));
    if (summary.errors)
      bits.push(R.badge(`${summary.errors} error${summary.errors > 1 ? 's' : ''}`, 'bad'));
    if (summary.subcalls)
      bits.push(R.badge(`${summary.subcalls} sub-call${summary.subcalls > 1 ? 's' : ''}`, ''));
    if (summary.children)
      bits.push(
        R.badge(`${summary.children} child RLM${summary.children > 1 ? 's' : ''}`, 'child'),
      );
    if (summary.nudges)
      bits.push(R.badge(`${summary.nudges} nudge${summary.nudges > 1 ? 's' : ''}`, 'warn'));
    if (summary.partial)
      bits.push(
        R.badge(
          'no turn record',
          'bad',
          'The file has sub-call or compaction records for this turn but not the turn itself.',
        ),
      );
    return h('header', { class: 'turn-head' }, bits);
  }

  function turnEvent(event) {
    if (event.kind === 'compaction') {
      const turnsText = (list) => `turn${list.length > 1 ? 's' : ''} ${list.join(', ')}`;
      const shrunk = (event.shrunk || []).map(
        (c) =>
          `turn ${c.turn}${c.block !== undefined ? ` block ${c.block}` : ''}: ${R.num(c.fromChars)} → ${R.num(c.toChars)} chars`,
      );
      return h(
        'div',
        { class: `event compaction${event.overflow ? ' over' : ''}` },
        h('strong', {}, 'Compaction'),
        ` before this turn: ${R.num(event.beforeTokens)} → ${R.num(event.afterTokens)} tokens (budget ${R.num(event.budgetTokens)}${event.compactAtTokens ? `, compacts above ${R.num(event.compactAtTokens)}` : ''})`,
        event.elidedTurns.length ? ` · outputs of ${turnsText(event.elidedTurns)} elided` : '',
        event.summarized
          ? ` · summarised by a sub-call${event.summarizedTurns?.length ? ` (${turnsText(event.summarizedTurns)})` : ''}`
          : '',
        event.shrunkMessages
          ? ` · ${event.shrunkMessages} message${event.shrunkMessages > 1 ? 's' : ''} shrunk`
          : '',
        shrunk.length ? h('div', { class: 'small' }, `Shrunk: ${shrunk.join('; ')}`) : null,
        event.summaryNote ? h('div', { class: 'small' }, `Summary: ${event.summaryNote}`) : null,
        event.overflow
          ? h(
              'div',
              { class: 'exec-error' },
              'Still over the limit after every step: the request was not sent.',
            )
          : null,
        event.estimator
          ? h('span', { class: 'muted small' }, ` · estimator ${event.estimator}`)
          : null,
      );
    }
    return h(
      'div',
      { class: 'event overflow' },
      h('strong', {}, 'Context overflow'),
      `: ~${R.num(event.estimatedTokens)} tokens over the budget of ${R.num(event.budgetTokens)} (window ${R.num(event.contextTokens)}, reply ${R.num(event.maxTokens)}) · ${event.action}`,
    );
  }

  function prose(out, text) {
    const trimmed = text.replace(/^\s*\n/, '').trimEnd();
    if (trimmed) out.append(h('div', { class: 'prose' }, trimmed));
  }

  /** The reply's prose; fenced REPL code becomes a pointer to the block shown below it. */
  function contentView(text, blockCount) {
    const out = h('div', { class: 'content' });
    let last = 0;
    let block = 0;
    for (const m of text.matchAll(FENCE)) {
      prose(out, text.slice(last, m.index));
      last = m.index + m[0].length;
      if (/^(repl|python|py)?$/i.test(m[1]) && block < blockCount) {
        block += 1;
        out.append(h('div', { class: 'fence-ref' }, `⤓ code block ${block} below`));
      } else {
        out.append(R.codeBlock(m[2], m[1]));
      }
    }
    prose(out, text.slice(last));
    if (text.trim() === '') out.append(h('div', { class: 'muted' }, '(empty reply)'));
    return out;
  }

  function resultView(result) {
    const parts = [];
    const meta = [];
    if (result.elapsedMs !== null) meta.push(R.ms(result.elapsedMs));
    if (result.timedOut) meta.push(R.badge('timed out', 'bad'));
    if (result.restarted) meta.push(R.badge(`REPL restarted: ${result.restarted}`, 'bad'));
    if (result.truncated) {
      meta.push(
        R.badge(
          `output truncated: ${R.num(result.stdout.length + result.stderr.length)} of ${R.chars(result.stdoutChars + result.stderrChars)} kept`,
          'warn',
        ),
      );
    }
    if (result.stdout)
      parts.push(
        h('div', { class: 'stream-label' }, 'stdout'),
        R.boundedText(result.stdout, {
          className: 'output',
          fullChars: result.stdoutChars,
          what: 'kept',
        }),
      );
    if (result.stderr)
      parts.push(
        h('div', { class: 'stream-label' }, 'stderr'),
        R.boundedText(result.stderr, {
          className: 'output stderr',
          fullChars: result.stderrChars,
          what: 'kept',
        }),
      );
    if (result.error) {
      parts.push(
        h(
          'div',
          { class: 'exec-error' },
          `${result.error.type}: ${result.error.message}${result.error.line ? ` (line ${result.error.line})` : ''}`,
        ),
      );
    }
    if (!result.stdout && !result.stderr && !result.error)
      parts.push(h('div', { class: 'muted small' }, '(no output)'));
    if (result.finalAnswer !== undefined)
      parts.push(
        h('div', { class: 'final-line' }, 'Final answer set: ', h('code', {}, result.finalAnswer)),
      );
    if (result.locals?.length) {
      parts.push(
        R.lazyDetails(`Variables (${result.locals.length})`, () =>
          h(
            'table',
            { class: 'locals' },
            result.locals.map(([k, v]) =>
              h(
                'tr',
                {},
                h('td', {}, h('code', {}, k)),
                h('td', {}, R.boundedText(v, { limit: 500 })),
              ),
            ),
          ),
        ),
      );
    }
    return h(
      'div',
      { class: 'result' },
      h('div', { class: 'result-meta' }, 'Output ', meta),
      parts,
    );
  }

  function subcallView(sub, ctx) {
    const bits = [
      h('span', { class: 'sub-kind' }, `${sub.count !== null ? `#${sub.count} ` : ''}${sub.kind}`),
      ` prompt ${R.chars(sub.prompt.chars)} → answer ${R.chars(sub.answer.chars)}`,
      sub.latencyMs !== null ? ` · ${R.ms(sub.latencyMs)}` : '',
      sub.model ? ` · ${sub.model}` : '',
      sub.endpoint ? ` @ ${sub.endpoint}` : '',
      sub.usage ? ` · ${R.tokens(sub.usage)} tokens` : '',
      sub.depth !== null ? h('span', { class: 'muted' }, ` · depth ${sub.depth}`) : '',
    ];
    const row = h(
      'details',
      { class: `subcall${sub.error ? ' failed' : ''}` },
      h('summary', {}, bits, sub.error ? R.badge('error', 'bad') : null),
      h('div', { class: 'io-label' }, 'Prompt'),
      R.boundedText(sub.prompt.text, {
        fullChars: sub.prompt.chars,
        sha256: sub.prompt.sha256,
        limit: 2000,
      }),
      h('div', { class: 'io-label' }, 'Answer'),
      R.boundedText(sub.answer.text, {
        fullChars: sub.answer.chars,
        sha256: sub.answer.sha256,
        limit: 2000,
      }),
      sub.error ? h('div', { class: 'exec-error' }, sub.error) : null,
    );
    const wrap = h('div', { class: 'subcall-wrap' }, row);
    if (sub.child) wrap.append(childRun(sub, ctx));
    return wrap;
  }

  function childRun(sub, ctx) {
    const inline = sub.child.inline;
    const source = inline
      ? R.memoryRun(inline, `${ctx.source.name} (nested)`, ctx.source.child)
      : ctx.source.child(sub.child.file);
    const label = inline
      ? `Child RLM: ${inline.header.question.text.slice(0, 140) || sub.prompt.text.slice(0, 140)}`
      : `Child RLM: ${sub.prompt.text.slice(0, 140)}`;
    return R.lazyDetails(
      h(
        'span',
        {},
        label,
        h('span', { class: 'muted' }, inline ? ' (inline)' : ` · ${sub.child.file}`),
      ),
      async () => {
        const box = h('div', { class: 'child-body' });
        await R.renderRun(box, source, { nested: true, depth: ctx.depth + 1 });
        return box;
      },
      { className: 'child-run', summaryClass: 'child-summary' },
    );
  }

  function subcallList(subcalls, ctx) {
    if (subcalls.length === 0) return null;
    const list = h('div', { class: 'subcalls' });
    const shown = subcalls.slice(0, SUBCALLS_SHOWN);
    list.append(...shown.map((s) => subcallView(s, ctx)));
    if (subcalls.length > SUBCALLS_SHOWN) {
      const more = h(
        'button',
        {
          class: 'link',
          onclick: () => {
            more.replaceWith(...subcalls.slice(SUBCALLS_SHOWN).map((s) => subcallView(s, ctx)));
          },
        },
        `show ${subcalls.length - SUBCALLS_SHOWN} more sub-calls`,
      );
      list.append(more);
    }
    return list;
  }

  function blockView(block, ctx) {
    return h(
      'section',
      { class: 'block' },
      h(
        'div',
        { class: 'block-head' },
        `Code block ${block.index + 1}`,
        block.subcalls.length
          ? h(
              'span',
              { class: 'muted' },
              ` · ${block.subcalls.length} sub-call${block.subcalls.length > 1 ? 's' : ''}`,
            )
          : '',
      ),
      R.codeBlock(block.code, 'python'),
      block.skipped ? h('div', { class: 'skipped' }, `Not run: ${block.skipped}`) : null,
      block.result ? resultView(block.result) : null,
      subcallList(block.subcalls, ctx),
    );
  }

  function finalView(final) {
    if (!final) return null;
    const what = final.variable ? `${final.kind} (${final.variable})` : final.kind;
    if (final.accepted) {
      return h(
        'div',
        { class: 'final ok' },
        h('strong', {}, `Final answer (${what})`),
        final.answer !== undefined ? R.boundedText(final.answer, { limit: 2000 }) : null,
      );
    }
    return h(
      'div',
      { class: 'final bad' },
      h('strong', {}, `Final rejected (${what})`),
      final.reason ? `: ${final.reason}` : '',
    );
  }

  R.renderTurn = (summary, detail, ctx) => {
    const card = h('article', { class: 'turn', 'data-turn': summary.turn });
    card.append(turnHead(summary, detail));
    if (!detail) {
      card.append(h('p', { class: 'muted' }, 'Details could not be loaded.'));
      return card;
    }
    card.append(...detail.events.map(turnEvent));
    if (detail.prompt) {
      const p = detail.prompt;
      card.append(
        R.lazyDetails(
          `Prompt sent: ${p.messages} message${p.messages === 1 ? '' : 's'}, ${R.chars(p.chars)}`,
          () =>
            p.last
              ? h(
                  'div',
                  {},
                  h('div', { class: 'io-label' }, 'Last user message'),
                  R.boundedText(p.last.text, { fullChars: p.last.chars }),
                )
              : h('p', { class: 'muted' }, 'No user message.'),
          { className: 'prompt' },
        ),
      );
    }
    if (detail.reasoning) {
      card.append(
        R.lazyDetails(
          `Reasoning (${R.chars(detail.reasoning.length)})`,
          () => R.boundedText(detail.reasoning, { className: 'reasoning-text', limit: 8000 }),
          { className: 'reasoning' },
        ),
      );
    }
    if (detail.recorded) card.append(contentView(detail.content, detail.blocks.length));
    card.append(...detail.blocks.map((b) => blockView(b, ctx)));
    if (detail.looseSubcalls.length) {
      card.append(
        h('div', { class: 'block-head' }, 'Sub-calls without a recorded block'),
        subcallList(detail.looseSubcalls, ctx),
      );
    }
    card.append(
      ...detail.nudges.map((n) =>
        h('div', { class: 'event nudge' }, h('strong', {}, `Nudge (${n.kind})`), ': ', n.text),
      ),
    );
    const final = finalView(detail.final);
    if (final) card.append(final);
    return card;
  };

  /** Rows that carry everything they show (no details to load). */
  R.renderPlainEntry = (entry) => {
    switch (entry.kind) {
      case 'issue':
        return h(
          'div',
          { class: 'entry issue' },
          h('strong', {}, `Line ${entry.line} could not be read`),
          `: ${entry.error} · ${R.chars(entry.chars)}`,
          h(
            'pre',
            { class: 'text' },
            entry.preview + (entry.chars > entry.preview.length ? ' …' : ''),
          ),
        );
      case 'context':
        return h(
          'div',
          { class: 'entry context' },
          h('strong', {}, 'New completion'),
          entry.at ? h('span', { class: 'muted' }, ` ${R.when(entry.at)}`) : '',
          entry.sessionMode ? ` · session ${entry.sessionMode}` : '',
          entry.environment ? ` · ${entry.environment} environment` : '',
          R.boundedText((entry.rootPrompt || entry.prompt).text, {
            fullChars: (entry.rootPrompt || entry.prompt).chars,
            limit: 1000,
          }),
        );
      case 'forced_finish':
        return h(
          'div',
          { class: 'entry forced' },
          h('strong', {}, 'Forced finish'),
          ` · reason ${entry.reason} · answer from ${entry.source}${entry.variable ? ` ${entry.variable}` : ''}`,
          entry.usage ? ` · ${R.tokens(entry.usage)} tokens` : '',
          entry.error
            ? h('div', { class: 'exec-error' }, `The forced-finish request failed: ${entry.error}`)
            : null,
          R.boundedText(entry.answer.text, { fullChars: entry.answer.chars, limit: 2000 }),
          entry.content
            ? R.lazyDetails('Forced reply', () =>
                h('div', {}, R.codeBlock(entry.content.text, 'text')),
              )
            : null,
        );
      case 'final':
        return h(
          'div',
          {
            class: `entry final-entry ${entry.stopReason === 'final' || entry.stopReason === 'answer_dict' ? 'ok' : 'warn'}`,
          },
          h('strong', {}, 'Run ended'),
          ` · stop reason ${entry.stopReason}`,
          entry.at ? h('span', { class: 'muted' }, ` · ${R.when(entry.at)}`) : '',
          entry.error ? h('div', { class: 'exec-error' }, entry.error) : null,
        );
      default:
        return h(
          'div',
          { class: 'entry unknown' },
          h('strong', {}, `Line ${entry.line}: event type "${entry.type}"`),
          ' is not known to this viewer',
          h('pre', { class: 'text' }, entry.preview),
        );
    }
  };
})();
