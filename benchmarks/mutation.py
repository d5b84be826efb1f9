"""Mutation testing of the modules where a silent bug loses a game (``make mutation``).

A test suite can pass while a plausible bug sits in the code: of thirteen bugs planted by hand
one at a time (issue 30), six passed every test. mutmut plants such bugs mechanically (a ``<``
for a ``<=``, a ``1`` for a ``0``, a dropped ``not``), one per copy of a function, and runs the
tests that cover that function against each; a mutant no test notices *survives*, and is
either a test to write or an equivalent change (the program behaves the same) to explain in
docs/testing.md.

Each target is run in a scratch copy of the project of its own (``/tmp/arbiter-mutation/NAME``
unless ``--scratch`` says otherwise), so mutmut's ``mutants/`` folder, its config and its
caches never touch the work tree, and with only the tests relevant to that target, so a run
takes minutes, not hours. The config mutmut needs is written into the scratch copy's
pyproject.toml here, which leaves ``make test`` unaffected.

    python benchmarks/mutation.py                  # every target, one after another
    python benchmarks/mutation.py crossing mills   # some targets
    python benchmarks/mutation.py journal --functions 'Journal.append' --functions 'write_*'
    python benchmarks/mutation.py crossing --json scores.json     # keep the scores and survivors
    python benchmarks/mutation.py crossing --rerun scores.json    # only the survivors, after new tests

Prints, per target, killed / total and each survivor's changed lines. Needs the ``mutation``
extra (``pip install -e '.[mutation]'``). mutmut runs under ``nice`` with two children at most
by default: the machine is shared.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "firmware_bridge", "hardware", "arbiter")
SCRATCH = Path(os.environ.get("ARBITER_MUTATION_DIR", "/tmp/arbiter-mutation"))


@dataclass(frozen=True)
class Target:
    """One module to mutate: which functions (``Class.method`` or ``function`` globs; empty: all)
    and which test files exercise them (the only tests run against its mutants)."""

    path: str
    tests: tuple[str, ...]
    functions: tuple[str, ...] = ()
    note: str = ""
    # Tests that cannot run on mutmut's rewritten copy of the module (their node-id prefixes).
    skip: tuple[str, ...] = ()


TARGETS: dict[str, Target] = {
    # BH-4 (crossings) and the search that applies it: a wrong crossing rule refuses a legal
    # move or lets an illegal one through, with no error anywhere.
    "crossing": Target(
        "engine/rules/brain_hanky.py",
        ("tests/test_brain_hanky_rules.py", "tests/test_mutants_crossing.py"),
        ("HankyState._hostile", "HankyState._path_problem", "HankyState._has_ring_move",
         "HankyState._iter_ring_moves", "HankyState.matching_steps"),
        "the Brain Hanky crossing rule (BH-4) and the move search and step matching that apply it",
    ),
    # Lines (mills) and what they allow: forming one, which men a line protects, re-forming.
    "mills": Target(
        "engine/rules/mills.py",
        ("tests/test_rules_morris.py", "tests/test_rules_morabaraba.py", "tests/test_rules_three.py",
         "tests/test_rules_shax.py", "tests/test_rules_saba.py", "tests/test_rules_small_squares.py",
         "tests/test_rules_tresillo.py", "tests/test_complete_games.py", "tests/test_mutants_mills.py"),
        ("MillRules.quiet_core_py", "MillState._forms_line", "MillState._removable",
         "MillState._line_removes"),
        "forming a line, which men a line protects, re-forming a broken line (G-4, G-5)",
    ),
    "stabiliser": Target(
        "arbiter/stabiliser.py",
        # test_referee_door: the stabiliser's refusals of malformed readings and settings
        ("tests/test_stabiliser.py", "tests/test_hand_check.py", "tests/test_referee_door.py",
         "tests/test_mutants_stabiliser.py"),
    ),
    "wire": Target(
        "firmware_bridge/wire.py",
        # test_serial_link and test_serial_firmware drive the Decoder and crc_checks through the
        # host's link and the chip's loop
        ("tests/test_serial_protocol.py", "tests/test_mutants_wire.py", "tests/test_serial_link.py",
         "tests/test_serial_firmware.py"),
        # it parses the module's source to check it stays MicroPython; mutmut's copy is not
        skip=("tests/test_serial_protocol.py::test_the_chips_code_is_python_micropython_understands",),
    ),
    "journal": Target(
        "arbiter/journal.py",
        ("tests/test_journal.py", "tests/test_journal_safety.py", "tests/test_mutants_journal.py"),
    ),
    "referee": Target(
        "arbiter/referee.py",
        ("tests/test_referee.py", "tests/test_referee_unsure.py", "tests/test_referee_door.py",
         "tests/test_mutants_referee.py"),
    ),
}


def module_of(path: str) -> str:
    return path[:-3].replace("/", ".")


def mangled(path: str, function: str) -> str:
    """mutmut's name for a function's mutants: ``pkg.mod.x_func`` or ``pkg.mod.xǁClassǁmethod``."""
    cls, _, name = function.rpartition(".")
    inner = f"xǁ{cls}ǁ{name}" if cls else f"x_{name}"
    return f"{module_of(path)}.{inner}"


def copy_project(dest: Path) -> None:
    """The packages, the tests, the build files and the docs' text (some tests check the docs'
    examples) as they stand in the work tree (uncommitted edits included: a new test counts
    before it is committed); no pictures, no data sets."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z", "--",
                             *PACKAGES, "tests", "pyproject.toml", "setup.py", "README.md", "docs/*.md"],
                            cwd=ROOT, check=True, capture_output=True).stdout.decode().split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if not src.is_file():
            continue  # listed but deleted in the work tree
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, out)


def toml_list(items) -> str:
    return "[" + ", ".join(json.dumps(str(i)) for i in items) + "]"


def write_config(dest: Path, target: Target) -> None:
    tests = [t for t in target.tests if (dest / t).exists()]
    config = (
        "\n[tool.mutmut]\n"
        f"source_paths = {toml_list(PACKAGES)}\n"
        f"only_mutate = {toml_list([target.path])}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        'also_copy = ["docs", "README.md"]\n'  # mutmut runs the tests in mutants/: the docs go along
        # the repeated tracebacks of thousands of failing runs are of no use here
        f'pytest_add_cli_args = {toml_list(["-p", "no:cacheprovider", "-q", "--tb=no"] + [f"--deselect={t}" for t in target.skip])}\n'
        "use_git_change_detection = false\n"
    )
    with open(dest / "pyproject.toml", "a", encoding="utf-8") as f:
        f.write(config)


def read_results(dest: Path, target: Target, names: tuple[str, ...] = ()) -> dict[str, int | None]:
    meta = dest / "mutants" / (target.path + ".meta")
    data = json.loads(meta.read_text(encoding="utf-8"))
    codes = data["exit_code_by_key"]
    if names:
        codes = {k: v for k, v in codes.items() if k in names}
    elif target.functions:
        wanted = [mangled(target.path, f) + "__mutmut_*" for f in target.functions]
        codes = {k: v for k, v in codes.items() if any(fnmatch.fnmatchcase(k, w) for w in wanted)}
    return codes


def status(code: int | None) -> str:
    from mutmut.stats import status_by_exit_code

    return status_by_exit_code[code]


def changed_lines(dest: Path, mutmut: str, name: str) -> str:
    shown = subprocess.run([mutmut, "show", name], cwd=dest, capture_output=True, text=True)
    lines = [ln for ln in shown.stdout.splitlines()
             if ln[:1] in "+-" and not ln.startswith(("+++", "---"))]
    return "\n".join("        " + ln.strip() if len(ln) < 140 else "        " + ln.strip()[:140] + "..."
                     for ln in lines) or "        (no diff shown)"


def run_target(name: str, target: Target, *, max_children: int, scratch: Path, mutmut: str,
               functions: tuple[str, ...] = (), previous: dict | None = None) -> dict:
    """Mutate one target and report. ``previous``: an earlier run's result for this target;
    only its survivors are run again (after new tests), and its kills are kept."""
    if functions:
        target = Target(target.path, target.tests, functions, target.note, target.skip)
    dest = scratch / name
    copy_project(dest)
    write_config(dest, target)
    cmd = ["nice", "-n", "15", mutmut, "run", "--max-children", str(max_children)]
    again: tuple[str, ...] = ()
    if previous is not None:
        again = tuple(k for s, keys in previous["by_status"].items() if s not in ("timeout",) for k in keys)
        cmd += list(again)
    elif target.functions:
        cmd += [mangled(target.path, f) + "__mutmut_*" for f in target.functions]
    print(f"== {name}: {target.path}" + (f" ({', '.join(target.functions)})" if target.functions else " (all)")
          + (f", again the {len(again)} not killed before" if previous is not None else ""), flush=True)
    if previous is not None and not again:
        print("   nothing to run again")
        return previous
    t0 = time.monotonic()
    run = subprocess.run(cmd, cwd=dest, capture_output=True, text=True)
    took = time.monotonic() - t0
    (dest / "mutmut-run.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    if run.returncode != 0:
        tail = "\n".join((run.stdout + run.stderr).strip().splitlines()[-15:])
        print(f"   mutmut failed (exit {run.returncode}); log in {dest / 'mutmut-run.log'}:\n{tail}")
        return {"target": name, "error": run.returncode}
    codes = read_results(dest, target, again)
    by_status: dict[str, list[str]] = {}
    for key, code in sorted(codes.items(), key=lambda kv: (kv[0].rsplit("__mutmut_", 1)[0],
                                                            int(kv[0].rsplit("_", 1)[1]))):
        by_status.setdefault(status(code), []).append(key)
    killed = len(by_status.get("killed", [])) + len(by_status.get("timeout", [])) \
        + len(by_status.get("caught by type check", []))
    total = len(codes)
    if previous is not None:  # the earlier kills stand: tests were only added since
        killed += previous["killed"]
        total = previous["total"]
        by_status.setdefault("timeout", []).extend(previous["by_status"].get("timeout", []))
        by_status.pop("killed", None)
        took += previous.get("seconds", 0)
    print(f"   killed {killed} / {total} in {took:.0f} s; "
          + ", ".join(f"{s} {len(v)}" for s, v in sorted(by_status.items())), flush=True)
    for s in ("survived", "no tests", "suspicious", "segfault", "not checked"):
        for key in by_status.get(s, []):
            print(f"   {s}: {key}")
            if s in ("survived", "no tests", "suspicious"):
                print(changed_lines(dest, mutmut, key))
    return {"target": name, "killed": killed, "total": total, "seconds": round(took),
            "by_status": {s: v for s, v in by_status.items() if s != "killed"}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("targets", nargs="*", help=f"of {', '.join(TARGETS)} (default: all, in that order)")
    ap.add_argument("--max-children", type=int, default=2, help="mutants tested at once (default 2)")
    ap.add_argument("--scratch", type=Path, default=SCRATCH, help=f"scratch folder (default {SCRATCH})")
    ap.add_argument("--functions", action="append", default=[],
                    help="mutate only these functions (Class.method or function; globs allowed); one target")
    ap.add_argument("--json", type=Path, help="also write the scores and survivors to this file")
    ap.add_argument("--rerun", type=Path, help="a --json file of an earlier run: run only its survivors again")
    args = ap.parse_args(argv)
    unknown = [t for t in args.targets if t not in TARGETS]
    if unknown:
        ap.error(f"unknown target {', '.join(unknown)}; the targets are {', '.join(TARGETS)}")
    names = args.targets or list(TARGETS)
    if args.functions and len(names) != 1:
        ap.error("--functions applies to one target at a time")
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        print("mutmut is not installed: pip install -e '.[mutation]'", file=sys.stderr)
        return 2
    earlier = {}
    if args.rerun:
        earlier = {r["target"]: r for r in json.loads(args.rerun.read_text(encoding="utf-8")) if "total" in r}
    results = [run_target(n, TARGETS[n], max_children=args.max_children, scratch=args.scratch, mutmut=mutmut,
                          functions=tuple(args.functions), previous=earlier.get(n)) for n in names]
    print("\nscore per target (killed / total):")
    for r in results:
        print(f"   {r['target']:<11} " + (f"{r['killed']} / {r['total']}" if "total" in r else f"failed ({r['error']})"))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
