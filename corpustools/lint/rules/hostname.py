"""A URL or a host name: something that says where a real system runs.

What: every URL with a network scheme (`https://...`, `ssh://...`, `mysql://...`; not Drupal's
`public://`, `private://`, `temporary://` stream wrappers, which name files), whatever its host,
reported once at the URL's start (an IP address in it is CT505's too); a host after `//`
(`//cdn.fern.lan/lib.js`) with a real TLD or a private suffix; and bare host names. Names and
addresses reserved for documentation and testing point at no one's system and are never flagged,
bare or in a URL: `localhost` and `*.localhost`, `*.test`, `*.example`, `*.invalid` (RFC 2606,
RFC 6761), `example.com`, `example.net`, `example.org` and their subdomains, and loopback or
documentation addresses (`http://127.0.0.1:8000/`, `http://[::1]/`, `192.0.2.0/24`; see CT505), so
`http://localhost:8000/` is everyday development text. The value of a `$schema` key
(`"$schema": "https://json-schema.org/draft/2020-12/schema"`, in JSON or YAML) names the JSON
Schema dialect of a document, not a system, and is not flagged either. A bare dotted token is a host name only
when it looks like one:

- its labels are 1-63 lowercase letters, digits and inner hyphens; an underscore or a capital
  after the first letter makes it code (`fern_events.info.yml`, `README.md`,
  `Drupal.behaviors.fernEvents`), and a numeric last label makes it a version (`8.1.2`);
- it is not glued to code: not right after `/` (a path such as `config/sync/system.site.yml`),
  `\\`, `@` (a service reference such as `@entity_type.manager`; `user@host` is CT506's),
  `$` or `%` (`%kernel.secret%`), and not right before `(` (a call such as `object.name()`);
- a private suffix (`.local`, `.internal`, `.corp`, `.lan`, `.intranet`, `.home.arpa`) makes a
  host, unless another label is code vocabulary (`settings.local`) or it is a two-label file name
  (`mymodule.local`);
- otherwise the last label must be a real TLD (every country code and the common generic ones),
  and then `www.` first, a development domain (`fern.ddev.site`, `*.lndo.site`), a strong TLD
  (`.com`, `.org`, `.net`, `.edu`, `.gov`, `.mil`, `.io`, `.co`: `drupal.org`) or a country code
  under a generic second level (`fern.co.uk`) makes a host;
- a TLD that is also a word, a property name or a file extension never makes a bare host:
  `system.site`, `mymodule.info`, `node.id`, `user.email`, `entity.name`, `run.sh`, `notes.md`,
  `main.py` (write such hosts as URLs: then they are flagged);
- any other country code makes a host with three or more labels, none of them Drupal or code
  vocabulary and the first not itself a TLD (`mail.fern.de` is a host; `language.entity.fr` is a
  config name, `org.fern.de` a reverse-DNS identifier).

So file names (`settings.local.php`, `mymodule.services.yml`, `node.html.twig`, `composer.json`),
service ids (`entity_type.manager`, `cache_tags.invalidator`, `plugin.manager.mail`), config
names (`system.site`, `core.extension`), PHP namespaces, hook names and version numbers pass.

The JSON Schema file of corpus.yaml's `output.schema` is scanned like any corpus file, but its
standard `"$schema"` member naming a json-schema.org dialect (`https://json-schema.org/draft/2020-12/schema`,
`http://json-schema.org/draft-07/schema#`, ...) identifies the schema language, not a system, and
is not reported.

Why: a real host name or URL in a fixture points at someone's infrastructure and dates the
corpus; an invented one still teaches the model to copy host names into extracted knowledge.
Name the system instead ("the staging site", "the catalog API"). Secret rules can never be
suppressed.

Example:

    [USER]: The feed lives at https://catalog.fernlibrary.org/api/holdings.

    sessions/admit-map-location-01.md:8:27: CT504 [error] URL with host `catalog.fernlibrary.org`; fingerprint 471708a3bff80c36cf11a0ebe1fe224ef6b77652d655ce1c76183e7a87412c03
"""

from collections.abc import Iterator

from corpustools.lint.context import LintContext
from corpustools.lint.diagnostic import Problem, Severity
from corpustools.lint.options import NoOptions
from corpustools.lint.secrets.findings import secret_problems

CODE = "CT504"
NAME = "hostname"
SEVERITY = Severity.ERROR
OPTIONS = ()
SUPPRESSIBLE = False
SCOPE = "corpus"
FIXES = ()  # lint --fix has none for it


def check(ctx: LintContext, options: NoOptions) -> Iterator[Problem]:
    yield from secret_problems(ctx, CODE)
