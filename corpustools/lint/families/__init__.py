"""What a family of rules shares: the analyses its rules ask for, computed once a run (cached on
the LintContext) and the helpers they word their findings with. A rule module imports from its
family; a family knows no rule. (The secret rules' family is corpustools.lint.secrets.)

- structure.py     the loader's problems and the corpus's pairing and categories (CT0xx-CT3xx)
- monotone.py      session shapes and distributions: a corpus too uniform to test anything (CT4xx)
- labels.py        labelled terms and points, each session's normalized turns (CT6xx)
- skeleton.py      sentences and their skeletons (numbers, ids and names masked)
- templates.py     sentences by skeleton in fixtures, the prompt and the KB (CT701-CT705)
- nearmatch.py     the near-duplicate search behind CT702 (nearmatch_arrays.py: on numpy arrays
                   for a large corpus)
"""
