#!/usr/bin/env python3
"""Split the reviewed attachment cases into locked.json and train.json (rule 3 of README.md).

usage: split.py POOL_A.json POOL_B.json [OUTDIR]

POOL_A and POOL_B are the two reviewed pools (JSON arrays of cases). OUTDIR defaults to the
folder of this script. The split is deterministic:

1. Pool both files (POOL_A's cases in file order, then POOL_B's). Ids must be unique: a repeated
   id is renamed by appending -2, -3, ... to its second, third, ... occurrence in that order
   (each rename is reported on stderr).
2. Sort by id, then shuffle with random.Random(2026112622).shuffle.
3. Cases sharing a `group` are moved as one unit to the position of the group's first member
   (the members keep their shuffled order inside the unit).
4. The first max(60, ceil(N/2)) cases form locked.json, the rest train.json. A unit is never
   cut: if a group starts before the boundary it goes whole to locked.json.

Output: JSON, 1-space indent, ensure_ascii=False, trailing newline.
"""
import json
import math
import os
import random
import sys

SEED = 2026112622


def load(path):
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    if not isinstance(data, list):
        raise SystemExit('%s: expected a JSON array of cases' % path)
    return data


def unique_ids(cases):
    seen = set()
    for c in cases:
        base = c['id']
        if base in seen:
            n = 2
            while '%s-%d' % (base, n) in seen:
                n += 1
            c['id'] = '%s-%d' % (base, n)
            print('renamed duplicate id %s -> %s' % (base, c['id']), file=sys.stderr)
        seen.add(c['id'])


def units_in_order(shuffled):
    units, placed = [], set()
    for c in shuffled:
        g = c.get('group')
        if g is None:
            units.append([c])
        elif g not in placed:
            placed.add(g)
            units.append([x for x in shuffled if x.get('group') == g])
    return units


def split(cases):
    unique_ids(cases)
    cases = sorted(cases, key=lambda c: c['id'])
    random.Random(SEED).shuffle(cases)
    n = len(cases)
    k = max(60, math.ceil(n / 2))
    locked, train = [], []
    for unit in units_in_order(cases):
        (locked if len(locked) < k else train).extend(unit)
    assert len(locked) + len(train) == n
    return locked, train, k


def dump(cases, path):
    with open(path, 'w', encoding='utf-8') as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)
        f.write('\n')


def main(argv):
    if len(argv) not in (3, 4):
        raise SystemExit(__doc__)
    cases = load(argv[1]) + load(argv[2])
    outdir = argv[3] if len(argv) == 4 else os.path.dirname(os.path.abspath(__file__))
    locked, train, k = split(cases)
    dump(locked, os.path.join(outdir, 'locked.json'))
    dump(train, os.path.join(outdir, 'train.json'))
    print('N=%d boundary=%d locked=%d train=%d' % (len(locked) + len(train), k, len(locked), len(train)))


if __name__ == '__main__':
    main(sys.argv)
