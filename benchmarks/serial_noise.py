"""The serial sensor board on a noisy line: does the handshake succeed, and does the screen say so when not?

Run: ``PYTHONPATH=. .venv/bin/python benchmarks/serial_noise.py [--runs N] [--quick]`` (``make
bench-serial-noise``). Prints the numbers beside the issue's targets (issue 30):

1. **Handshake at 3% of bytes spoilt**, ``--runs`` seeded runs (20) for each of tapatan (3x3
   cells), nine men's morris (7x7) and brain hanky (the largest matrix), in two ways:
   - *lockstep*: the virtual board and the host on one simulated clock (``serial_table``), so
     each seed's run is the same every time, whatever the machine's load;
   - *real time*: the virtual board on its own thread and ``SensorLink.open()`` reading it
     through the pty, as ``arbiter play --reader serial`` does, with seconds on the wall clock.
   Target: 20 of 20 for each board.
2. **At 10%**, the same boards, seeded, lockstep: either the handshake fails saying the line is
   too noisy and what to check, or it succeeds and after 4 s the play screen's status line says
   so. Target: every run says "too noisy" and names the cable, the ground and the baud rate.
3. **The line-health estimate** against the noise put on the line (lockstep, nine men's morris,
   4 s after the handshake): it should read close to the truth, and below 8% at 3%.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# This folder holds serial.py, which would shadow pyserial's `import serial`: keep it off the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import engine  # noqa: E402
from arbiter.sim.physical import PhysicalBoard  # noqa: E402
from arbiter.screen import status_line  # noqa: E402
from arbiter.sim.sensor import SensorRig, serial_table  # noqa: E402
from firmware_bridge.host import DeviceError, SensorLink  # noqa: E402

GAMES = ("tapatan", "nine-mens-morris", "brain-hanky")
ADVICE = ("too noisy", "cable", "ground", "baud")


def lockstep_handshake(game: str, noise: float, seed: int) -> tuple[bool, float, str]:
    """(succeeded, simulated seconds it took, the failure message or the status after 4 s)."""
    try:
        table, rig = serial_table(game, device={"bit_errors": noise, "seed": seed})
    except DeviceError as exc:
        return False, 6.0, str(exc)
    try:
        took = rig.link.now() - 0.0
        table.wait(4.0)
        return True, took, status_line(table.session, table.time.t)
    finally:
        rig.stop()


def realtime_handshake(game: str, noise: float, seed: int) -> tuple[bool, float, str]:
    rig = SensorRig(PhysicalBoard(engine.load(game)), bit_errors=noise, seed=seed)
    port = rig.start()
    link = SensorLink(port)
    t0 = time.monotonic()
    try:
        link.open()
        return True, time.monotonic() - t0, ""
    except DeviceError as exc:
        return False, time.monotonic() - t0, str(exc)
    finally:
        link.close()
        rig.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=20, help="seeded runs per board (default 20)")
    ap.add_argument("--quick", action="store_true", help="5 runs per board, lockstep only")
    args = ap.parse_args()
    runs = 5 if args.quick else args.runs

    print("Serial sensor board on a noisy line (benchmarks/serial_noise.py)")
    print(f"1. handshake at 3% of bytes spoilt, seeds 0..{runs - 1}; target {runs} of {runs}:")
    ways = [("lockstep", lockstep_handshake)] + ([] if args.quick else [("real time", realtime_handshake)])
    for way, fn in ways:
        for game in GAMES:
            results = [fn(game, 0.03, seed) for seed in range(runs)]
            ok = [took for good, took, _ in results if good]
            failures = [text for good, _, text in results if not good]
            took = f", handshake median {statistics.median(ok):.2f} s, max {max(ok):.2f} s" if ok else ""
            verdict = "meets" if len(ok) == runs else "MISSES"
            print(f"  {way:9} {game:17} {len(ok)} of {runs}{took}: {verdict}")
            for text in failures[:2]:
                print(f"    failed: {text}")

    print(f"2. at 10% of bytes spoilt, lockstep, seeds 0..{runs - 1}; target: every run says the line is too "
          f"noisy and what to check:")
    for game in GAMES:
        said_status = said_error = shook = 0
        example = ""
        for seed in range(runs):
            good, _, text = lockstep_handshake(game, 0.10, seed)
            shook += good
            if all(w in text for w in ADVICE):
                said_status += good
                said_error += not good
                example = example or text
        said = said_status + said_error
        verdict = "meets" if said == runs else "MISSES"
        print(f"  {game:17} said so in {said} of {runs}: the handshake succeeded in {shook} and the status line said "
              f"so in {said_status}; it failed in {runs - shook} and the error said so in {said_error}: {verdict}")
    if example:
        print(f"  e.g.: {example[-260:]}")

    print("3. the line-health estimate (nine men's morris, lockstep, 4 s after the handshake, seeds 0..4):")
    for noise in (0.0, 0.01, 0.03, 0.05, 0.08, 0.10):
        est = []
        for seed in range(5):
            try:
                table, rig = serial_table("nine-mens-morris", device={"bit_errors": noise, "seed": seed})
            except DeviceError:
                continue
            try:
                table.wait(4.0)
                p = rig.link.health.spoilt(rig.link.now())
                if p is not None:
                    est.append(p)
            finally:
                rig.stop()
        shown = ", ".join(f"{p:.1%}" for p in est)
        print(f"  {noise:4.0%} spoilt: estimates {shown or 'none (no handshake)'}")


if __name__ == "__main__":
    main()
