# SPDX-License-Identifier: MIT
"""layers.py OBJDIR... - dependencies run one way.

Reads the source files of planner/, driver/ and userspace/ and the object
files in OBJDIR... (each a build of some of them: `nm` says which global
symbols a file defines and which it uses).  Fails on:

- an include cycle: files that include each other, directly or around a loop;
- a call cycle: C files that call functions (or read variables) of each
  other, directly or around a loop;
- a call against the layers: planner/ calls nothing of driver/ or userspace/
  but the hooks its port header (planner/port.h) declares for each host to
  supply, driver/ and libtplan nothing of the tool;
- a planner-internal header (planner/core/internal.h and every planner
  header that includes it) included from outside planner/;
- a planner C file missing from planner/sources.mk, the one list the
  Makefile and Kbuild build.

Prints one "ok"/"FAIL" line per check and "N passed, N failed" last.
"""
import os
import re
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AREAS = ("planner", "driver", "userspace")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def sources():
    """Every .c and .h of the areas, relative to TOP."""
    found = []
    for area in AREAS:
        for root, _, names in os.walk(os.path.join(TOP, area)):
            for name in names:
                if name.endswith((".c", ".h")):
                    found.append(os.path.relpath(os.path.join(root, name), TOP))
    return sorted(found)


def unit(path):
    """A C file's name without .c: what its object is called."""
    return os.path.splitext(path)[0]


def resolve(includer, inc, files):
    """The tree's file a quoted include names: beside the includer, then
    under planner/ (-Iplanner), then any file of that name if only one."""
    for cand in (os.path.join(os.path.dirname(includer), inc),
                 os.path.join("planner", inc)):
        cand = os.path.normpath(cand)
        if cand in files:
            return cand
    same = [f for f in files if os.path.basename(f) == os.path.basename(inc)]
    return same[0] if len(same) == 1 else None


def include_edges(files):
    """(includer, included) for every quoted include resolved in the tree."""
    edges = set()
    for f in files:
        with open(os.path.join(TOP, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            target = resolve(f, inc, files)
            if target and target != f:
                edges.add((f, target))
    return edges


def symbols(objdirs, files):
    """unit -> (defined, used) global symbols, from the objects found."""
    stems = {}
    for f in files:
        if f.endswith(".c"):
            stems.setdefault(os.path.basename(unit(f)), []).append(unit(f))
    table = {}
    for d in objdirs:
        for root, _, names in os.walk(d):
            for name in names:
                if not name.endswith(".o") or name.endswith(".mod.o"):
                    continue
                rel = os.path.relpath(os.path.join(root, name[:-2]), d)
                u = rel if rel in {unit(f) for f in files} else None
                if u is None and len(stems.get(name[:-2], [])) == 1:
                    u = stems[name[:-2]][0]
                if u is None:
                    continue
                out = subprocess.run(["nm", os.path.join(root, name)],
                                     capture_output=True, text=True).stdout
                defined, used = table.setdefault(u, (set(), set()))
                for line in out.splitlines():
                    parts = line.split()
                    if len(parts) == 2 and parts[0] == "U":
                        used.add(parts[1])
                    elif len(parts) == 3 and parts[1] in "TDBRG":
                        defined.add(parts[2])
    return table


def port_hooks():
    """The functions planner/port.h declares: each host supplies them."""
    path = os.path.join(TOP, "planner", "port.h")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as fh:
        text = re.sub(r"/\*.*?\*/", "", fh.read(), flags=re.S)
    return set(re.findall(r"\b(tplan_\w+)\s*\(", text))


def call_edges(table, hooks=frozenset()):
    """(caller, callee) units; a planner file calling a port hook is not one."""
    owner = {}
    for u, (defined, _) in table.items():
        for s in defined:
            owner.setdefault(s, u)
    edges = set()
    for u, (_, used) in table.items():
        for s in used:
            v = owner.get(s)
            if v and v != u and not (u.startswith("planner/") and s in hooks):
                edges.add((u, v))
    return edges


def cycles(edges):
    """Strongly connected components of more than one unit (iterative Tarjan)."""
    graph = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, [])
    index, low, on, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on.add(v)
            succ = sorted(graph[v])
            if i < len(succ):
                work.append((v, i + 1))
                w = succ[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            for w in succ:
                if w in on and index[w] > index[v]:
                    low[v] = min(low[v], low[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def rank(u):
    """Layers: the planner at the bottom, the driver and the library
    (userspace/lib/) on it, the tool (userspace/tplanctl/) on the library."""
    if u.startswith("planner/"):
        return 0
    if u.startswith("userspace/tplanctl/"):
        return 2
    return 1


def sources_listed():
    """The C files planner/sources.mk lists, relative to planner/."""
    with open(os.path.join(TOP, "planner", "sources.mk"), encoding="utf-8") as fh:
        text = fh.read().replace("\\\n", " ")
    m = re.search(r"^TPLAN_PLANNER_SRC\s*:=(.*)$", text, re.M)
    return set(m.group(1).split()) if m else set()


def internal_headers(files):
    """planner/core/internal.h and the planner headers that include it."""
    internal = {"planner/core/internal.h"}
    grew = True
    while grew:
        grew = False
        for f in files:
            if not f.startswith("planner/") or not f.endswith(".h") or f in internal:
                continue
            with open(os.path.join(TOP, f), encoding="utf-8") as fh:
                incs = INCLUDE.findall(fh.read())
            if any(resolve(f, i, files) in internal for i in incs):
                internal.add(f)
                grew = True
    return internal


def main(objdirs):
    files = sources()
    passed = failed = 0
    calls = call_edges(symbols(objdirs, files), port_hooks())
    for name, edges in (("no_include_cycle", include_edges(files)),
                        ("no_call_cycle", calls)):
        loops = cycles(edges)
        for comp in loops:
            print("FAIL layers.%s: these depend on each other: %s"
                  % (name, ", ".join(comp)))
        if loops:
            failed += 1
        else:
            print("ok   layers.%s (%d files, %d dependencies)"
                  % (name, len(files), len(edges)))
            passed += 1
    below = [(a, b) for a, b in sorted(calls) if rank(a) < rank(b)]
    if below:
        print("FAIL layers.calls_go_down: " +
              "; ".join("%s calls %s" % e for e in below))
        failed += 1
    else:
        print("ok   layers.calls_go_down (planner < driver, libtplan < tplanctl)")
        passed += 1
    internal = internal_headers(files)
    leaks = []
    for f in files:
        if f.startswith("planner/"):
            continue
        with open(os.path.join(TOP, f), encoding="utf-8", errors="replace") as fh:
            for inc in INCLUDE.findall(fh.read()):
                if resolve(f, inc, files) in internal:
                    leaks.append("%s includes %s" % (f, inc))
    if leaks:
        print("FAIL layers.planner_internal_headers: " + "; ".join(leaks))
        failed += 1
    else:
        print("ok   layers.planner_internal_headers (%d internal)" % len(internal))
        passed += 1
    listed = sources_listed()
    missing = [f for f in files if f.startswith("planner/") and f.endswith(".c")
               and f[len("planner/"):] not in listed]
    if missing:
        print("FAIL layers.planner_sources_listed: not in planner/sources.mk: "
              + ", ".join(missing))
        failed += 1
    else:
        print("ok   layers.planner_sources_listed (%d files)" % len(listed))
        passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
