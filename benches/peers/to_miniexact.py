#!/usr/bin/env python3
"""Converts a dlx file with costs (dlx5's `|n` or `$n`) into what miniexact's Algorithm C$
reads: each option's cost as one `$n` at its end, the options in order of cost (miniexact
refuses them otherwise; stable, so ties keep their order), and, with --tag, a secondary item
`#k` of its own in option k (which changes no solution) so that miniexact's printed
solutions name the options they use.

  python3 benches/peers/to_miniexact.py [--tag] IN.dlx > OUT.dlx
"""
import sys


def read(path):
    items, options = None, []
    for line in open(path):
        text = line.strip()
        if not text or text.startswith("|"):
            continue
        if items is None:
            items = text
            continue
        names, cost = [], 0
        for token in text.split():
            if token[0] in "|$" and token[1:].isdigit():
                cost += int(token[1:])
            else:
                names.append(token)
        options.append((cost, names))
    return items, options


def main():
    tag = "--tag" in sys.argv[1:]
    path = [a for a in sys.argv[1:] if a != "--tag"][0]
    items, options = read(path)
    if tag:
        tags = " ".join(f"#{k}" for k in range(len(options)))
        items = items + (" " if "|" in items else " | ") + tags
    print(items)
    order = sorted(range(len(options)), key=lambda k: options[k][0])
    for k in order:
        cost, names = options[k]
        extra = [f"#{k}"] if tag else []
        print(" ".join(names + extra) + f" ${cost}")


main()
