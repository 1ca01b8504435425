"""The n queens problem in Knuth's dlx format: ranks and files primary, diagonals secondary.
python docs/recipes/queens_dlx.py 15 > queens15.dlx   (2,279,184 solutions)"""
import sys


def queens_dlx(n):
    ranks = [f"r{i}" for i in range(n)]
    files = [f"c{j}" for j in range(n)]
    diagonals = [f"a{s}" for s in range(2 * n - 1)] + [f"b{s}" for s in range(2 * n - 1)]
    lines = [" ".join(ranks + files) + " | " + " ".join(diagonals)]
    for i in range(n):
        for j in range(n):
            lines.append(f"r{i} c{j} a{i + j} b{i - j + n - 1}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(queens_dlx(int(sys.argv[1])))
