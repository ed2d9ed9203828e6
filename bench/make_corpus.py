"""bench/make_corpus.py N OUT [--seed S] [--defects K]: write a synthetic corpus and its results.

OUT/corpus/ is a corpus of N fixtures that `corpustools lint` finds clean (with
`--prompt OUT/prompt.md --kb OUT/kb`); OUT/results/ holds one result per fixture in a realistic
mix of outcomes, plus run.yaml. With --defects K, K defects of every plantable rule kind are
planted and listed in OUT/defects.json (never inside the corpus folder). Same arguments, same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from corpusgen import generate, write_tree  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make_corpus.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("n", type=int, help="number of fixtures")
    parser.add_argument("out", help="output folder (must not exist or be empty)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--defects", type=int, default=0, metavar="K", help="plant K defects of every rule kind")
    args = parser.parse_args(argv)
    if args.n < 1 or args.defects < 0:
        parser.error("N must be at least 1 and K at least 0")
    if os.path.isdir(args.out) and os.listdir(args.out):
        parser.error(f"{args.out}: folder is not empty; refusing to write into it")
    try:
        generated = generate(args.n, args.seed, args.defects)
    except ValueError as err:
        parser.error(str(err))
    files = dict(generated.files)
    if args.defects:
        files["defects.json"] = (json.dumps({
            "planted": [{"code": code, "path": path} for code, path in generated.planted],
            "not_planted": [{"code": code, "why": why} for code, why in generated.unplanted],
        }, indent=2) + "\n").encode()
    write_tree(args.out, files)
    results = sum(1 for path in files if path.startswith("results/"))
    print(f"{args.out}: {args.n} fixtures, {results} result files, {len(generated.planted)} planted defects")
    return 0


if __name__ == "__main__":
    sys.exit(main())
