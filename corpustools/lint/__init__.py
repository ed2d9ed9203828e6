"""`corpustools lint`: corpus-quality rules.

Layout (yamllint's): each rule is one module under `corpustools.lint.rules` that declares, as data,

    CODE = "CT601"            # the contract other tools rely on
    NAME = "term-unwinnable"
    SEVERITY = "error"        # default level: "error" | "warning"
    OPTIONS = ()              # Option(name, type, default, doc, min/max/choices, validate) records,
                              # set under `lint: rules: CT601:` in corpus.yaml (corpustools.lint.options)
    SUPPRESSIBLE = True       # False for the CT5xx secret rules: they can never be switched off

documents itself in its module docstring (first line: one-sentence summary; then what, why, an
example), and yields `Problem`s from a `check(ctx, options)` generator; `options` holds every
declared option, already checked and defaulted (`options.threshold`). Rules never print and never
decide their own severity: the engine stamps code, name and the configured severity onto each
Problem to make a `Diagnostic`, and the reporters format Diagnostics. Adding a rule is one module,
an import and an entry in `registry.RULE_MODULES`, and its tests.
"""
