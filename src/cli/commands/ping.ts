import type { Command } from 'commander';
import { ConfigError } from '../../errors.js';
import {
  type PingEndpointReport,
  type PingReport,
  type PingRequestReport,
  ping,
} from '../../lm/ping.js';
import { addModelFlags, type ModelFlags, profileFromFlags } from '../model-flags.js';

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) {
    throw new ConfigError(`--timeout must be a number of seconds above 0, got "${value}"`);
  }
  return n;
}

function describeRequest(label: string, r: PingRequestReport): string {
  if (!r.ok) return `  ${label} FAILED after ${r.latencyMs} ms: ${r.error ?? 'unknown error'}`;
  const usage = r.usage
    ? `tokens in ${r.usage.inputTokens} (cached ${r.usage.cachedInputTokens}), out ${r.usage.outputTokens}`
    : 'no usage';
  return `  ${label} ok in ${r.latencyMs} ms; ${usage}; finish ${r.finishReason}; reasoning ${r.reasoning ? 'yes' : 'no'}; reply "${r.reply ?? ''}"`;
}

function describeEndpoint(e: PingEndpointReport): string[] {
  const models = e.models.ok
    ? `  models: ${e.models.ids.join(', ') || '(none listed)'} (${e.models.latencyMs} ms)`
    : `  models: could not list (${e.models.error ?? 'unknown error'})`;
  return [
    `base_url: ${e.baseUrl}`,
    `  api ${e.api}; roles ${e.roles.join(', ')}; model ${e.model}`,
    models,
    describeRequest('plain request:   ', e.plain),
    describeRequest('thinking request:', e.thinking),
  ];
}

/** The text `reclamo ping` prints. */
export function formatPingReport(report: PingReport): string {
  const lines = [`profile: ${report.profile} (${report.source})`, ''];
  for (const endpoint of report.endpoints) lines.push(...describeEndpoint(endpoint), '');
  const failed = report.endpoints.filter((e) => !e.ok).length;
  lines.push(
    failed === 0
      ? `all ${report.endpoints.length} endpoint(s) answered`
      : `${failed} of ${report.endpoints.length} endpoint(s) failed`,
  );
  return `${lines.join('\n')}\n`;
}

export function registerPing(program: Command): void {
  const command = program
    .command('ping')
    .description(
      'Check every endpoint of a profile: list its models, send a plain and a thinking request, report latency, usage and reasoning',
    );
  addModelFlags(command, {
    profileHelp: 'profile to check (default: $RECLAMO_PROFILE, else "default" in the user file)',
    contextTokens: false,
  })
    .option(
      '--timeout <seconds>',
      'time allowed for silence from a server, per request',
      seconds,
      60,
    )
    .option('--json', 'print the report as JSON')
    .action(async (options: ModelFlags & { timeout: number; json?: boolean }) => {
      // ConfigError and KeyError propagate: the entry point prints them and exits 2.
      const profile = await profileFromFlags(options);
      const report = await ping(profile, { timeoutMs: options.timeout * 1000 });
      process.stdout.write(
        options.json ? `${JSON.stringify(report, null, 2)}\n` : formatPingReport(report),
      );
      if (!report.ok) process.exitCode = 1;
    });
}
