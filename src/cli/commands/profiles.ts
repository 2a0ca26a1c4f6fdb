/** `reclamo profiles` and `reclamo profiles show NAME`: what profiles exist and what one resolves to. */
import { Command } from 'commander';
import {
  type DescribedRole,
  describeProfile,
  listProfiles,
  loadProfile,
  type ProfileList,
  type ResolvedProfile,
  type RunSettings,
} from '../../config/index.js';
import { getPromptVersion } from '../../rlm/prompts/index.js';

/** Where the command writes and which environment it reads (injectable for tests). */
export interface ProfilesCommandIo {
  /** Receives each chunk of output. Defaults to process.stdout. */
  write?: (text: string) => void;
  /** Defaults to process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Builds the `profiles` command. */
export function profilesCommand(io: ProfilesCommandIo = {}): Command {
  const write = io.write ?? ((text: string) => process.stdout.write(text));
  const env = io.env ?? process.env;
  const command = new Command('profiles')
    .description('list the available profiles and where each comes from')
    .option(
      '--file <path>',
      'profile file to read (default: $RECLAMO_PROFILES or ~/.config/reclamo/profiles.toml)',
    )
    .option('--json', 'print JSON')
    .action(async (options: { file?: string; json?: boolean }) => {
      const list = await listProfiles({ env, ...(options.file ? { file: options.file } : {}) });
      write(options.json ? `${JSON.stringify(list, null, 2)}\n` : formatList(list));
    });
  command
    .command('show')
    .description('print a resolved profile (key sources only, never keys)')
    .argument(
      '[name]',
      'profile name (default: $RECLAMO_PROFILE, else "default" from the user file)',
    )
    .option('--file <path>', 'profile file to read')
    .option('--json', 'print JSON')
    .action(async (name: string | undefined, options: { file?: string; json?: boolean }) => {
      // The parent's options are parsed wherever they appear, so read both.
      const parent = command.opts<{ file?: string; json?: boolean }>();
      const file = options.file ?? parent.file;
      const json = options.json ?? parent.json;
      const profile = await loadProfile({
        env,
        ...(name ? { profile: name } : {}),
        ...(file ? { file } : {}),
      });
      write(json ? `${JSON.stringify(showJson(profile), null, 2)}\n` : formatProfile(profile));
    });
  return command;
}

function formatList(list: ProfileList): string {
  const width = Math.max(...list.profiles.map((p) => p.name.length));
  const lines = list.profiles.map((p) => {
    const mark = p.name === list.selected ? '*' : ' ';
    return `${mark} ${p.name.padEnd(width)}  ${p.origin}`;
  });
  const file = `user file: ${list.file.path}${list.file.exists ? '' : ' (not found)'}`;
  const selected = list.selected
    ? `* used when no --profile is given`
    : 'no profile is selected by default: pass --profile NAME or set RECLAMO_PROFILE';
  return `${[file, '', ...lines, '', selected].join('\n')}\n`;
}

/** The profile as loaded, plus the defaults its prompt version gives unset fields. */
function showJson(profile: ResolvedProfile) {
  const version = getPromptVersion(profile.run.promptVersion);
  return {
    profile: describeProfile(profile),
    promptDefaults: { version: version.id, ...version.defaults },
  };
}

const DEFAULT_NOTE = '  (prompt version default)';

function formatProfile(profile: ResolvedProfile): string {
  const shown = describeProfile(profile);
  const d = getPromptVersion(profile.run.promptVersion).defaults;
  const lines = [`profile: ${shown.name}`, `source:  ${shown.source}`];
  const rootCap =
    shown.root.enableThinking === false ? d.rootMaxTokensNoThinking : d.rootMaxTokensThinking;
  lines.push('', '[root]', ...roleLines(shown.root, rootCap, d.requestTimeoutSeconds));
  lines.push('', '[sub]', ...roleLines(shown.sub, d.subMaxTokens, d.requestTimeoutSeconds));
  lines.push('', '[run]');
  for (const [key, value] of Object.entries(shown.run)) {
    lines.push(`  ${snake(key)} = ${JSON.stringify(value)}`);
  }
  const versioned: [keyof RunSettings, number][] = [
    ['maxIterations', d.maxIterations],
    ['outputTruncateChars', d.outputTruncateChars],
    ['maxSubcallsPerRun', d.maxSubcallsPerRun],
    ['maxSubcallsPerExec', d.maxSubcallsPerExec],
    ['maxTimeout', d.maxTimeoutSeconds],
  ];
  for (const [key, value] of versioned) {
    if (shown.run[key] === undefined) lines.push(`  ${snake(key)} = ${value}${DEFAULT_NOTE}`);
  }
  return `${lines.join('\n')}\n`;
}

function snake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

function roleLines(role: DescribedRole, maxTokens: number, timeout: number): string[] {
  const key =
    role.key.kind === 'env'
      ? `env ${role.key.variable}`
      : role.key.kind === 'command'
        ? `command ${role.key.program} …`
        : 'none';
  const fields: [string, unknown, string][] = [
    ['base_url', role.baseUrl, ''],
    ['api', role.api, ''],
    ['key', key, ''],
    ['concurrency', role.concurrency, ''],
    ['model', role.model, ''],
    ['max_tokens', role.maxTokens ?? maxTokens, role.maxTokens === undefined ? DEFAULT_NOTE : ''],
    ['enable_thinking', role.enableThinking, ''],
    ['reasoning_effort', role.reasoningEffort, ''],
    ['sampling', Object.keys(role.sampling).length ? role.sampling : undefined, ''],
    ['context_tokens', role.contextTokens, ''],
    [
      'timeout',
      role.timeoutSeconds ?? timeout,
      role.timeoutSeconds === undefined ? DEFAULT_NOTE : '',
    ],
  ];
  return fields
    .filter(([, value]) => value !== undefined)
    .map(
      ([name, value, note]) =>
        `  ${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}${note}`,
    );
}
