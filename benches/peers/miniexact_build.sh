#!/bin/sh
# Builds miniexact 1.6.1 (PyPI's source, BSD-3-Clause) twice, for the costs comparisons:
#   DIR/miniexact-released  as published (the same answers as `pip install miniexact==1.6.1`);
#   DIR/miniexact-fixed     with its Algorithm C$'s restore loops mended (docs/guide.md, "Against
#                           miniexact"): after a cover or purify that hid only the options under a
#                           cost threshold, 1.6.1 restores from the bottom of the item's list and
#                           steps down, so at most the last option is restored; and its unhide
#                           steps forward over a purified node where it must step back.
#
#   sh benches/peers/miniexact_build.sh [DIR]     (default /tmp/miniexact-build; needs curl, gcc)
set -eu
DIR=${1:-/tmp/miniexact-build}
URL=https://files.pythonhosted.org/packages/04/6b/d80551a77fa30984c4d7791c44616171cbd6c831be64be74bbed273757d6/miniexact-1.6.1.tar.gz
SHA=966a4f305e0904a46b707412a074fa3d4fbf24ac5337820f67dde7df0cbdf17b
mkdir -p "$DIR"
cd "$DIR"
[ -f miniexact-1.6.1.tar.gz ] || curl -sSfL -o miniexact-1.6.1.tar.gz "$URL"
echo "$SHA  miniexact-1.6.1.tar.gz" | sha256sum -c - >/dev/null
rm -rf released fixed
mkdir released fixed
tar xzf miniexact-1.6.1.tar.gz -C released --strip-components=1
tar xzf miniexact-1.6.1.tar.gz -C fixed --strip-components=1
python3 - fixed/include/miniexact/ops.h <<'PY'
import sys
path = sys.argv[1]
text = open(path).read()
# uncover' and unpurify' with a threshold: restore bottom-up from the last option under it.
for start, var in (("miniexact_link p_ = ULINK(i);\n  while(p_ != i && COST(p_) < t) {", "p_"),
                   ("q = ULINK(i);\n  while(q != i && COST(q) < t) {", "q")):
    assert text.count(start) == 1, start
    head = start.split("\n")[0].replace("ULINK(i)", "DLINK(i)")
    text = text.replace(start, head + f"\n  while({var} != i && COST({var}) < t)\n    {var} = DLINK({var});"
                        f"\n  {var} = ULINK({var});\n  while({var} != i) {{")
for var in ("p_", "q"):
    step = f"UNHIDE_PRIME_DOLLAR({var});\n    {var} = DLINK({var});"
    assert text.count(step) == 1, step
    text = text.replace(step, step.replace("DLINK", "ULINK"))
# unhide' for C$: step back over a purified node, as unhide' does.
i = text.index("miniexact_unhide_prime_dollar(miniexact_problem* p, miniexact_link p_) {")
j = text.index("q = q + 1;", i)
text = text[:j] + "q = q - 1;" + text[j + len("q = q + 1;"):]
open(path, "w").write(text)
PY
for v in released fixed; do
  echo 'const unsigned char miniexact_license[] = {0x00};' > $v/license.h
  sed 's/@GIT_HASH@/sdist/;s/@GIT_TAG@/v1.6.1/' $v/src/git.c.in > $v/git.c
  (cd $v && gcc -O3 -DNDEBUG -DHAVE_STRLCPY -DMINIEXACT_VERSION='"1.6.1"' -Iinclude -Isrc -I. \
    -o ../miniexact-$v src/main.c src/getopt_port.c src/parse.c src/miniexact.c src/simple.c \
    src/algorithm.c src/algorithm_x.c src/algorithm_c.c src/algorithm_m.c \
    src/algorithm_c_dollar.c src/log.c src/util.c git.c)
done
diff -u released/include/miniexact/ops.h fixed/include/miniexact/ops.h || true
echo "built $DIR/miniexact-released and $DIR/miniexact-fixed"
# The smallest problem found where the released C$ goes wrong (docs/guide.md): no costs at all,
# one solution, b d with a c.
printf 'a b c d\na b d $0\nb d $0\nb c $0\na c $0\n' > tiny.dlx
for v in released fixed; do
  echo "miniexact-$v -C -D -p -e on a b c d / a b d / b d / b c / a c:"
  ./miniexact-$v -C -D -p -e tiny.dlx || true
done
