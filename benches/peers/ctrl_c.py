# Milliseconds from Ctrl-C (_thread.interrupt_main) to KeyboardInterrupt for long Python calls:
# python benches/peers/ctrl_c.py, with the package installed (pip install ./python).
import _thread, threading, time, sys
import quadrille as q
import pathlib
FIX = str(pathlib.Path(__file__).resolve().parents[2] / "fixtures") + "/"
def latency(fn, after=0.5):
    sent = []
    def ctrl_c():
        sent.append(time.monotonic()); _thread.interrupt_main()
    t = threading.Timer(after, ctrl_c); t.start()
    try:
        fn(); return "finished first"
    except KeyboardInterrupt:
        return f"{(time.monotonic() - sent[0]) * 1000:.1f} ms"
    finally:
        t.cancel()
p = q.ExactCover.read_dlx(FIX + "pentominoes_6x10.dlx")
print("count 6x10", latency(lambda: p.count()))
print("count 6x10 -j2", latency(lambda: p.count(threads=2)))
print("generate 25x25", latency(lambda: q.generate(1, box="5x5", seed=1)))
print("generate 25x25 minimal", latency(lambda: q.generate(2, box="5x5", seed=1, minimal="orbits", threads=2)))
lines = [l.split()[0] for l in open(FIX + "sudoku/25x25.txt") if l.strip() and not l.startswith("#")]
for line in lines[:3]:
    t0 = time.monotonic()
    try:
        q.rate(line, time_budget=3)
    except Exception as e:
        print("err", e)
    print("rate alone", f"{time.monotonic()-t0:.2f}s")
    print("rate 25x25", latency(lambda: q.rate(line), after=0.3))
    print("explain 25x25", latency(lambda: q.explain(line), after=0.3))
