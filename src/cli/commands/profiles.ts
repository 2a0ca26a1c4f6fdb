/** `reclamo profiles` and `reclamo profiles show NAME`: what profiles exist and what one resolves to. */
import { Command } from 'commander';
import {
  applyVersionDefaults,
  type DescribedRole,
  describeProfile,
  listProfiles,
  loadProfile,
  type ProfileList,
  type ResolvedProfile,
} from '../../config/index.js';

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

/** The profile as loaded, plus the values unset fields take from its prompt version. */
function showJson(profile: ResolvedProfile) {
  return {
    profile: describeProfile(profile),
    effective: describeProfile(applyVersionDefaults(profile)),
  };
}

function formatProfile(profile: ResolvedProfile): string {
  const shown = describeProfile(profile);
  const effective = describeProfile(applyVersionDefaults(profile));
  const lines = [`profile: ${shown.name}`, `source:  ${shown.source}`];
  for (const role of ['root', 'sub'] as const) {
    lines.push('', `[${role}]`, ...roleLines(shown[role], effective[role]));
  }
  lines.push('', '[run]');
  const run = effective.run as Record<string, unknown>;
  const set = shown.run as Record<string, unknown>;
  for (const [key, value] of Object.entries(run)) {
    const name = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const note = key in set ? '' : '  (prompt version default)';
    lines.push(`  ${name} = ${JSON.stringify(value)}${note}`);
  }
  return `${lines.join('\n')}\n`;
}

function roleLines(role: DescribedRole, effective: DescribedRole): string[] {
  const key =
    role.key.kind === 'env'
      ? `env ${role.key.variable}`
      : role.key.kind === 'command'
        ? `command ${role.key.program} …`
        : 'none';
  const fields: [string, unknown, boolean][] = [
    ['base_url', role.baseUrl, true],
    ['api', role.api, true],
    ['key', key, true],
    ['concurrency', role.concurrency, true],
    ['model', role.model, true],
    ['max_tokens', effective.maxTokens, role.maxTokens !== undefined],
    ['enable_thinking', role.enableThinking, true],
    ['reasoning_effort', role.reasoningEffort, true],
    ['sampling', Object.keys(role.sampling).length ? role.sampling : undefined, true],
    ['context_tokens', role.contextTokens, true],
    ['timeout', effective.timeoutSeconds, role.timeoutSeconds !== undefined],
  ];
  return fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value, explicit]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return `  ${name} = ${text}${explicit ? '' : '  (prompt version default)'}`;
    });
}
