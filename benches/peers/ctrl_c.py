# Milliseconds from Ctrl-C (_thread.interrupt_main) to KeyboardInterrupt for long Python calls,
# each interrupted after several delays: python benches/peers/ctrl_c.py, with the package
# installed (pip install ./python). The slow 25x25 rating is of a minimal puzzle that the
# package generates (seed 1), whose rating takes minutes.
import _thread, threading, time
import quadrille as q
import pathlib
FIX = str(pathlib.Path(__file__).resolve().parents[2] / "fixtures") + "/"
DELAYS = (0.1, 0.3, 0.5, 0.8, 1.3)


def latency(fn, after):
    sent = []

    def ctrl_c():
        sent.append(time.monotonic())
        _thread.interrupt_main()

    t = threading.Timer(after, ctrl_c)
    t.start()
    try:
        fn()
        return "finished first"
    except KeyboardInterrupt:
        return f"{(time.monotonic() - sent[0]) * 1000:.1f}"
    finally:
        t.cancel()


def row(name, fn):
    print(f"{name:32}", " ".join(f"{latency(fn, after):>7}" for after in DELAYS), "ms")


p = q.ExactCover.read_dlx(FIX + "pentominoes_6x10.dlx")
row("count 6x10", lambda: p.count())
row("count 6x10 threads=2", lambda: p.count(threads=2))
row("generate 25x25 minimal", lambda: q.generate(2, box="5x5", seed=1, minimal="orbits"))
row("generate 25x25 minimal threads=2",
    lambda: q.generate(2, box="5x5", seed=1, minimal="orbits", threads=2))
slow = q.generate(1, box="5x5", seed=1, minimal="orbits")[0]["puzzle"]
row("rate slow 25x25", lambda: q.rate(slow))
row("explain slow 25x25", lambda: q.explain(slow))
