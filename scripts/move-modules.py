#!/usr/bin/env python3
"""Move TypeScript modules with `git mv` and rewrite every relative import to follow them.

Usage: scripts/move-modules.py MAPPING_FILE   (lines: `old/path.ts new/path.ts`)
Imports are resolved against each file's old location, mapped through the moves, and
written relative to its new one, in src/, test/, bench/ and evals/.
"""
import os, re, subprocess, sys

ROOTS = ['src', 'test', 'bench', 'evals']
SPEC = re.compile(r"""((?:from|import)\s*\(?\s*['"])(\.{1,2}/[^'"]+)(['"])""")

def main():
    moves = {}
    for line in open(sys.argv[1]):
        line = line.split('#')[0].strip()
        if not line:
            continue
        old, new = line.split()
        moves[os.path.normpath(old)] = os.path.normpath(new)
    files = []
    for root in ROOTS:
        for dirpath, _, names in os.walk(root):
            if 'node_modules' in dirpath:
                continue
            files += [os.path.normpath(os.path.join(dirpath, n)) for n in names if n.endswith('.ts')]
    # Rewrite contents first (each file knows its old location), then move.
    for path in files:
        new_path = moves.get(path, path)
        text = open(path).read()
        def fix(m):
            spec = m.group(2)
            base = spec[:-3] + '.ts' if spec.endswith('.js') else spec
            target = os.path.normpath(os.path.join(os.path.dirname(path), base))
            target = moves.get(target, target)
            rel = os.path.relpath(target, os.path.dirname(new_path))
            if not rel.startswith('.'):
                rel = './' + rel
            if spec.endswith('.js'):
                rel = rel[:-3] + '.js'
            return m.group(1) + rel + m.group(3)
        out = SPEC.sub(fix, text)
        if out != text:
            open(path, 'w').write(out)
    for old, new in moves.items():
        os.makedirs(os.path.dirname(new), exist_ok=True)
        subprocess.run(['git', 'mv', old, new], check=True)

main()
