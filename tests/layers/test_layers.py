#!/usr/bin/env python3
"""The source tree's layers: which folder of src/ may include which, and no
circle among the library's compiled files.

The layers, bottom up: core/ (instances, tours, shared infrastructure), ls/
(the local-search engine), backend/ (the interface and its cpu/ and cuda/
implementations), algo/ (the searches), mpi/ (the searches over MPI ranks,
a library of its own beside them).  Each folder includes only layers
below it; algo/ reaches backend/ through backend/backend.h alone, and cuda/
never includes cpu/.

No circles: a compiled file depends on another when it calls a function
(or reads an object) that the other defines, as the linker sees them
(nm); these dependencies must form no cycle, so that every file can be
read, tested and replaced on top of the ones below it.

Usage: test_layers.py OBJECTS_LIST   (a file naming the library's object
files, one a line; tests/CMakeLists.txt generates it)
"""
import collections
import os
import re
import subprocess
import sys
import unittest

OBJECTS = None

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)

# folder -> the folders its files may include (besides itself)
ALLOWED = {
    "core": set(),
    "ls": {"core"},
    "backend": {"core"},
    "backend/cpu": {"core", "backend"},
    "backend/cuda": {"core", "backend"},
    "algo": {"core", "ls", "backend"},
    "mpi": {"core", "ls", "algo"},
}


def sources():
    for folder in ALLOWED:
        path = os.path.join(SRC, folder)
        for name in sorted(os.listdir(path)):
            if os.path.splitext(name)[1] in (".c", ".h", ".cu", ".cuh"):
                yield folder, f"{folder}/{name}"


def includes(rel):
    with open(os.path.join(SRC, rel), encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


class Layers(unittest.TestCase):
    def test_each_folder_includes_only_the_layers_below(self):
        bad = []
        for folder, rel in sources():
            for inc in includes(rel):
                target = os.path.dirname(inc)
                if not os.path.exists(os.path.join(SRC, inc)):
                    continue  # a header beside the file, by its bare name
                if target != folder and target not in ALLOWED[folder]:
                    bad.append(f"{rel} includes {inc}")
                if folder == "algo" and target.startswith("backend") and inc != "backend/backend.h":
                    bad.append(f"{rel} includes {inc} (algo/ sees backend/backend.h only)")
        self.assertEqual(bad, [])

    def test_no_circles_among_compiled_files(self):
        with open(OBJECTS) as f:
            objects = [l.strip() for l in f if l.strip()]
        self.assertGreater(len(objects), 10)
        defines, needs = {}, {}
        for obj in objects:
            rel = obj.replace(os.sep, "/")
            name = rel[rel.rfind("/src/") + 5:] if "/src/" in rel else os.path.basename(rel)
            out = subprocess.run(["nm", "-P", obj], capture_output=True, text=True, check=True)
            d, u = set(), set()
            for line in out.stdout.splitlines():
                parts = line.split()
                if len(parts) < 2:
                    continue
                if parts[1] == "U":
                    u.add(parts[0])
                elif parts[1] in "TDBRCVW":
                    d.add(parts[0])
            defines[name], needs[name] = d, u
        owner = {s: f for f, d in defines.items() for s in d}
        deps = collections.defaultdict(set)
        for f, u in needs.items():
            deps[f] |= {owner[s] for s in u if s in owner and owner[s] != f}
        state, stack, cycles = {}, [], []

        def visit(f):
            state[f] = 1
            stack.append(f)
            for g in sorted(deps[f]):
                if state.get(g) == 1:
                    cycles.append(" -> ".join(stack[stack.index(g):] + [g]))
                elif g not in state:
                    visit(g)
            stack.pop()
            state[f] = 2

        for f in sorted(defines):
            if f not in state:
                visit(f)
        self.assertEqual(cycles, [])

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_layers.py OBJECTS_LIST")
    OBJECTS = sys.argv.pop(1)
    unittest.main()
