"""What the template rules (CT701-CT704) are built on: sentence splitting, masking, positions, and
the blocked near-duplicate search (lint/families/skeleton.py, templates.py, nearmatch*.py). Each
rule's own samples are in tests/rules/ (test_template_reuse.py, test_template_near.py,
test_prompt_leak.py, test_kb_verbatim.py)."""

from __future__ import annotations

import os
import random
import re

import numpy as np
import pytest
from swaps import one_noun_swaps, skeleton_of  # bench/swaps.py (bench/ is on pytest's pythonpath)

from corpustools.lint.families import nearmatch, nearmatch_arrays
from corpustools.lint.families.nearmatch import (
    DEAD,
    MAX_BLOCK,
    NearIndex,
    candidate_pairs_indexed,
    near_pairs,
    prefix_length,
)
from corpustools.lint.families.skeleton import MAX_LINE_CHARS, line_sentences, strip_frontmatter
from corpustools.lint.families.templates import by_skeleton, turn_sentences
from corpustools.model.session import parse_session
from tests.support.corpus import session_text
from tests.support.templates import TEMPLATE_A, TEMPLATE_B, TEMPLATE_NEAR

pytestmark = pytest.mark.usefixtures("in_tmp")


# --- skeletons -------------------------------------------------------------------------------

MASKING = [
    ("Import 212 items at 09:30 on 2026-02-17 from the v2 feed.", "import * items at * on * from the * feed"),
    ("The session 6ee92a58-d7a7-40c2-a3e2-8c1ae62a2018 failed again.", "the session * failed again"),
    ("Run `ddev drush cr` before you test.", "run * before you test"),
    ("He said \"not yet\" and 'maybe so' twice, but don't worry.", "he said * and * twice but don t worry"),
    ("Open web/modules/custom/fern_branch/src/Branch.php and /etc/hosts and ./run.sh now.",
     "open * and * and * now"),
    ("Edit settings.local.php and node.html.twig and fern-branch.services.yml today.", "edit * and * and * today"),
    ("The weekly_hours key, pickupDesk flag, CardSourceResolver class and bravo_pii.cache service differ.",
     "the * key * flag * class and * service differ"),
    ("Call \\Drupal::service() or $entity->save() with --force and -y, then #cache and @logger.",
     "call * or * with * and * then * and *"),
    ("See https://example.com/docs?a=1 for details.", "see * for details"),
    ("Then Maria asked whether Fern Library runs Drupal.", "then * asked whether * * runs *"),
    ("Branch ids are location codes.", "branch ids are location codes"),  # sentence-initial: grammar
    ("Then I checked, and I'm sure.", "then i checked and i m sure"),  # "I" is not a name
    # the one normalization drops a word-final 's; other contractions keep their letters
    ("The branch's id isn\u2019t abbreviated, it\u2019s the ILS code.", "the branch id isn t abbreviated it the * code"),
    ("Caf\u00e9 \uff26\uff29\uff2c\uff25 names are NFKC-normalized.", "caf\u00e9 * names are * normalized"),
]


@pytest.mark.parametrize("sentence, skeleton", MASKING)
def test_masking(sentence, skeleton):
    assert skeleton_of(sentence) == skeleton


def test_instances_of_one_template_share_a_skeleton():
    assert skeleton_of(TEMPLATE_A) == skeleton_of(TEMPLATE_B) != skeleton_of(TEMPLATE_NEAR)


def test_sentences_split_at_stops_followed_by_a_non_lowercase_token():
    found = line_sentences("Done. The form renders, e.g. the label, on `/signup`! Is v1.2 out? `x` works.", 7, 8)
    assert [(s.line, s.col, s.text) for s in found] == [
        (7, 9, "Done"), (7, 15, "The form renders, e.g. the label, on `/signup`"),
        (7, 63, "Is v1.2 out"), (7, 76, "`x` works")]


def test_list_markers_headings_and_role_tags_are_not_sentence_text():
    for line in ("- Open the queue worker", "12. Open the queue worker", "## Open the queue worker",
                 "> Open the queue worker", "[USER]: Open the queue worker", "  * [AGENT]: Open the queue worker"):
        (sentence,) = line_sentences(line, 1)
        assert sentence.skeleton == "open the queue worker"
        assert line[sentence.col - 1:].startswith("Open")


def test_only_long_worded_sentences_count():
    def counted(text):
        return [s.counts(8, 3) for s in line_sentences(text, 1)]

    assert counted("Running the tests now.") == [False]
    assert counted("`a` `b` `c` `d` `e` `f` `g` `h` and `i`.") == [False]  # 9 tokens, 1 word
    assert counted(TEMPLATE_A) == [True]


def test_long_quoted_strings_and_json_text_values_are_read_as_sentences():
    line = ('  "body": "For pages with personal data, the default render cache stores plaintext in the '
            'database.\\n\\nUse the `bravo_pii.cache` service instead.",')
    found = line_sentences(line, 3)
    assert [(s.col, s.skeleton) for s in found] == [
        (3, "* *"),
        (12, "for pages with personal data the default render cache stores plaintext in the database"),
        (104, "use the * service instead"),
    ]
    assert found[2].text == "Use the `bravo_pii.cache` service instead"
    # a short quoted literal is only masked
    assert [s.skeleton for s in line_sentences('It lists "CI gate before merging" as criterion 1.', 1)] == [
        "it lists * as criterion *"]


def test_turn_sentences_are_positioned_in_the_session_file():
    text = session_text(body="[USER]: Keep it short. Run the queue worker nightly.\n"
                             "[AGENT]:\n\n  Then the cron hook only enqueues ids.\n"
                             "[USER /self-review-apply notes/r2.xml]: /self-review-apply notes/r2.xml\n")
    session = parse_session(text, "s.md", "s")
    assert [(s.line, s.col, s.text) for s in turn_sentences(session)] == [
        (7, 9, "Keep it short"), (7, 24, "Run the queue worker nightly"),
        (10, 3, "Then the cron hook only enqueues ids"),
        (11, 41, "/self-review-apply notes/r2.xml")]
    assert [s.line for s in turn_sentences(session, "AGENT")] == [10]


def test_a_pathological_line_is_read_only_up_to_the_cap():
    line = "Run the queue worker before every deploy of the site. " * 20_000  # about 1 MB
    found = line_sentences(line, 1)
    assert found and all(s.col <= MAX_LINE_CHARS for s in found)
    assert len(found) < MAX_LINE_CHARS // 50


def test_frontmatter_is_stripped_with_its_lines_counted():
    assert strip_frontmatter("---\nsummary: x\n---\n# Title\n") == ("# Title\n", 4)
    assert strip_frontmatter("# Title\n") == ("# Title\n", 1)
    assert strip_frontmatter("---\nnever closed\n") == ("---\nnever closed\n", 1)


# --- blocking ----------------------------------------------------------------------------------

def synthetic_texts(count: int, seed: int = 7) -> list[str]:
    """Distinct sentence-like texts over a Zipf-ish vocabulary, with every tenth one a near copy."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}x" for i in range(3000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]
    texts: list[str] = []
    while len(texts) < count:
        if texts and len(texts) % 10 == 0:
            words = texts[-1].split()
            words[rng.randrange(len(words))] = rng.choice(vocabulary)  # one word changed
        else:
            words = rng.choices(vocabulary, weights, k=rng.randint(10, 16))
        text = " ".join(words)
        if text not in texts:
            texts.append(text)
    return texts


def test_near_duplicate_search_compares_far_fewer_than_every_pair():
    texts = synthetic_texts(3000)
    index = NearIndex(texts, 90)
    compared = sum(len([j for j in index.candidates(text) if j > i]) for i, text in enumerate(texts))
    every_pair = len(texts) * (len(texts) - 1) // 2
    assert compared < every_pair // 50, (compared, every_pair)


def test_near_duplicate_search_finds_what_comparing_every_pair_finds():
    from rapidfuzz import fuzz

    texts = synthetic_texts(400, seed=11)
    brute = {(a, b) for a in range(len(texts)) for b in range(a + 1, len(texts))
             if fuzz.ratio(texts[a], texts[b]) >= 90}
    assert len(brute) >= 30  # the planted near copies
    assert {(p.a, p.b) for p in near_pairs(texts, 90)} == brute


def test_prefix_length_shrinks_with_the_threshold():
    assert prefix_length(10, 90) < prefix_length(10, 70) <= 10
    assert prefix_length(1, 90) == 1 and prefix_length(0, 90) == 0


def common_word_texts() -> list[str]:
    """3000 sentences made of the same 14 words: every triple of them is held by many."""
    rng = random.Random(3)
    common = "the queue worker runs before every deploy and the cron hook only enqueues ids".split()
    return sorted({" ".join(rng.sample(common, 11)) for _ in range(4000)})[:3000]


def test_blocks_of_common_words_stop_growing():
    # No search may read more than MAX_BLOCK candidates per block key.
    texts = common_word_texts()
    index = NearIndex(texts, 90)
    assert max(len(index.candidates(text)) for text in texts) <= max(len(index.keys(t)) for t in texts) * MAX_BLOCK
    assert sum(len(index.candidates(text)) for text in texts) < len(texts) ** 2 // 20


@pytest.mark.parametrize("arrays_from", [0, nearmatch.ARRAYS_FROM], ids=["arrays", "indexed"])
def test_every_planted_one_noun_swap_is_found_at_the_default_threshold(arrays_from, monkeypatch):
    from corpustools.lint.options import defaults
    from corpustools.lint.rules import template_near

    monkeypatch.setattr(nearmatch, "ARRAYS_FROM", arrays_from)  # 3,000 skeletons: both searches
    texts, swaps = one_noun_swaps(1500, seed=29)
    found = {(texts[p.a], texts[p.b]) for p in near_pairs(texts, defaults(template_near).threshold)}
    missed = [(a, b) for a, b in swaps if (min(a, b), max(a, b)) not in found]
    assert missed == []



def test_the_calibration_script_scores_the_swaps_and_misses_none(capsys):
    # bench/swaps.py 100000 is how the default threshold was calibrated (docs/performance.md).
    from swaps import main

    assert main(["300", "--seed", "3"]) == 0
    scores, search = capsys.readouterr().out.splitlines()
    assert scores.startswith("300 one-noun swaps (seed 3): lowest score ") and "0 under 85" in scores
    assert search.startswith("near_pairs at 85 over 600 skeletons: 0 swaps missed")

# --- the search on arrays (many texts) finds what NearIndex's dicts find (few texts) ----------

EDGE_TEXTS = ["", "*", "* *", "alpha", "alpha *", "alpha beta", "beta alpha", "alpha beta gamma", "alpha beta gamma",
              "* alpha beta gamma delta", "alpha beta gamma delta epsilon", "delta beta gamma alpha epsilon zeta",
              "Zeta alpha beta", "zeta alpha beta", "é alpha beta gamma", "alpha\tbeta  gamma"]


def golden_skeletons() -> list[str]:
    """CT702's texts on the golden corpus (tests/test_golden.py): its distinct sentence skeletons."""
    import tempfile
    from pathlib import Path

    from corpustools.lint.options import defaults
    from corpustools.lint.rules import template_near
    from tests.support.bench import write_generated
    from tests.test_golden import DEFECTS, FIXTURES, SEED

    options = defaults(template_near)
    with tempfile.TemporaryDirectory() as folder:
        context = context_of(write_generated(Path(folder), FIXTURES, SEED, DEFECTS) / "corpus")
        return list(by_skeleton(context, options.min_tokens, options.min_words))


def context_of(root):
    from corpustools.lint.engine import Selection, build_context, corpus_config
    from corpustools.lint.registry import rule_modules
    from corpustools.model.corpus import load_corpus

    corpus = load_corpus(str(root))
    return build_context(corpus, corpus_config(corpus, rule_modules()), Selection())


SEARCHES = {  # name -> (texts, thresholds)
    "near copies": (lambda: synthetic_texts(3000), (90, 85, 70)),
    "common words, dead blocks": (common_word_texts, (90, 60)),
    "one-noun swaps": (lambda: one_noun_swaps(1500, seed=29)[0], (85, 75)),
    "edge texts": (lambda: EDGE_TEXTS, (100, 85, 50, 0)),
    "golden corpus": (golden_skeletons, (85, 70, 60)),
}


@pytest.mark.parametrize("name", sorted(SEARCHES))
def test_the_array_search_finds_exactly_the_candidates_of_the_indexed_search(name):
    make, thresholds = SEARCHES[name]
    texts = make()
    for threshold in thresholds:
        indexed = candidate_pairs_indexed(texts, threshold)
        assert nearmatch_arrays.candidate_pairs(texts, threshold) == indexed, (name, threshold)
        assert len(indexed.a) > 0, (name, threshold)  # an empty comparison would prove nothing


def test_the_array_search_is_exact_when_key_hashes_collide(monkeypatch):
    # The first pass finds repeated keys by a 32-bit hash of each; a key one text holds whose hash
    # another key shares is kept, and must meet nothing. Hashes of 3 bits make most keys collide.
    texts = synthetic_texts(3000)
    indexed = candidate_pairs_indexed(texts, 85)
    monkeypatch.setattr(nearmatch_arrays, "_key_hashes", lambda keys: (keys & 7).astype(np.uint32))
    assert nearmatch_arrays.candidate_pairs(texts, 85) == indexed
    assert len(indexed.a) > 0


def test_the_array_search_sorts_key_hashes_in_passes_with_the_same_result(monkeypatch):
    # A large corpus's key hashes are sorted a part at a time (PASS_KEYS at most); 3,000 texts
    # make some 65,000 keys, so 1,000 a pass means 128 passes.
    texts = synthetic_texts(3000)
    whole = nearmatch_arrays.candidate_pairs(texts, 85)
    monkeypatch.setattr(nearmatch_arrays, "PASS_KEYS", 1000)
    assert nearmatch_arrays.candidate_pairs(texts, 85) == whole == candidate_pairs_indexed(texts, 85)


@pytest.mark.parametrize("threshold", [90, 85, 60])
def test_a_search_skipping_keys_of_unblocked_words_finds_every_candidate(threshold):
    # NearIndex.candidates makes only the keys of words some indexed text is blocked under: the
    # same candidates as every key of the text (one-noun swaps: near copies to find; the rest of
    # the texts: words the index never saw).
    texts = synthetic_texts(3000)
    index = NearIndex(texts[:300], threshold)
    found = 0
    for text in texts[200:900]:
        candidates = index.candidates(text)
        assert candidates == index._candidates(len(text), index.keys(text))
        found += bool(candidates)
    assert 0 < found < 700  # some texts have candidates, some have none


def test_the_common_word_case_closes_blocks():
    # What makes it a test of MAX_BLOCK: some of its block keys are held by too many texts.
    assert DEAD in NearIndex(common_word_texts(), 90).blocks.values()


def test_lint_of_a_small_corpus_does_not_import_numpy(tmp_path):
    # numpy serves the near-duplicate search from ARRAYS_FROM texts on; the shipped corpus has fewer.
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "fixtures" / "prompt-eval"
    program = (f"import sys; from corpustools.cli import main; code = main(['lint', {str(root)!r}]); "
               "sys.stdout.flush(); print(code, 'numpy' in sys.modules, file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path)
    assert result.stderr.strip().splitlines()[-1] == "0 False", result.stderr[-2000:]


@pytest.mark.heavy
def test_ct702_at_10000_fixtures_has_the_candidates_of_the_indexed_search(tmp_path):
    """The array search against NearIndex's dicts (the search of before, kept for small corpora)
    on the generated 10,000-fixture corpus with planted defects: the same candidates (hundreds of
    thousands), so the same scores and findings; and the findings are the planted near-duplicates."""
    from corpusgen import generate, write_tree

    from corpustools.lint.options import defaults
    from corpustools.lint.rules import template_near

    generated = generate(10_000, 0, 5)
    write_tree(str(tmp_path), generated.files)
    context = context_of(tmp_path / "corpus")
    options = defaults(template_near)
    texts = list(by_skeleton(context, options.min_tokens, options.min_words))
    assert len(texts) >= nearmatch.ARRAYS_FROM
    arrays = nearmatch_arrays.candidate_pairs(texts, options.threshold)
    assert arrays == candidate_pairs_indexed(texts, options.threshold)
    assert len(arrays.a) > 100_000
    # One finding per pair of fixtures, at the later one, naming the earlier: between them, the
    # five planted near-copies and their donors, and nothing else.
    findings = list(template_near.check(context, options))
    involved = {os.path.basename(problem.pos.path).removesuffix(".md") for problem in findings}
    involved |= {re.search(r" in ([\w.-]+)[ ;]", problem.message).group(1) for problem in findings}
    planted = {os.path.basename(path).removesuffix(".md") for code, path in generated.planted if code == "CT702"}
    assert len(planted) == len(findings) == 5 and planted <= involved, (planted, findings)


# The skeleton scan's two fast paths must not change a skeleton: a run of plain words matched at
# once, and an ASCII run lowercased and split instead of normalize()d. Lines are drawn from the
# characters every token kind starts or ends with.
_LINE_PIECES = ["the", "cache", "Drupal", "I", "don't", "it's", "caf\u00e9", "\u00dfe", "\ufb01ne", "e.g.", " ",
                "  ", ", ", "; ", ". ", "? ", "!", "'", "\u2019", "-", "_", "/", "\\", ":", "(", ")", "@", "$",
                "#", "%", '"', "`", "\u201c", "\u201d", "1", "x" * 101, "http://a.b/c", "\t", "\\n", "\u0301"]


def test_skeletons_are_those_of_one_token_per_word():
    from corpustools.lint.families import skeleton

    one_word = re.compile(skeleton._TOKEN.pattern.replace(
        "(?P<word>" + skeleton._PLAIN_WORD + "(?:[ ,;]{1,40}" + skeleton._PLAIN_WORD + ")*)",
        "(?P<word>" + skeleton._PLAIN_WORD + ")"), re.VERBOSE)
    assert one_word.pattern != skeleton._TOKEN.pattern
    rng = random.Random(26)
    lines = ["".join(rng.choice(_LINE_PIECES) for _ in range(rng.randint(0, 30))) for _ in range(20_000)]
    fast = [line_sentences(line, 1) for line in lines]
    original_token, original_words = skeleton._TOKEN, skeleton._run_words
    try:
        skeleton._TOKEN = one_word
        skeleton._run_words = lambda run: skeleton.normalize(" ".join(run)).split()
        plain = [line_sentences(line, 1) for line in lines]
    finally:
        skeleton._TOKEN, skeleton._run_words = original_token, original_words
    assert fast == plain
    assert sum(map(len, fast)) > 10_000  # the lines did make sentences
