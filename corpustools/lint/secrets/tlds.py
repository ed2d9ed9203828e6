"""Top-level domains, as data: every country-code TLD and the common generic ones.

A compact list on purpose: the full root zone has over a thousand entries, many of them English
words (`.menu`, `.style`, `.events`), and every one of those makes some dotted code identifier
look like a host name. Host-name decisions live in hosts.py; this module only says what is what.
"""

from __future__ import annotations

COUNTRY_CODES = frozenset("""
ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bm bn bo bq br bs bt
bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cr cu cv cw cx cy cz de dj dk dm do dz ec ee eg er
es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy hk hm hn hr ht
hu id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la lb lc li lk lr ls
lt lu lv ly ma mc md me mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz na nc ne nf ng ni nl
no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw sa sb sc sd se sg sh
si sj sk sl sm sn so sr ss st su sv sx sy sz tc td tf tg th tj tk tl tm tn to tr tt tv tw tz ua ug
uk us uy uz va vc ve vg vi vn vu wf ws ye yt za zm zw
""".split())

GENERIC = frozenset("""
com org net edu gov mil int arpa info biz name pro mobi aero asia cat coop jobs museum tel travel
post app dev page blog cloud online site website store shop tech xyz top club live space icu vip
wiki email link design digital agency media news studio art life world today network
""".split())

TLDS = COUNTRY_CODES | GENERIC

# Bare `name.com` is a host name; these are almost never the last part of a code identifier.
STRONG = frozenset({"com", "org", "net", "edu", "gov", "mil", "io", "co"})

# Second-level labels under a country code that make `fern.co.uk`-style names unmistakable.
GENERIC_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "gv"})

# TLDs that are also everyday words or property names (`node.id`, `user.email`, `row.link`,
# `expect.to`): a bare token ending in one is a host name only with `www.` or inside a URL.
WORDLIKE = (GENERIC - STRONG - {"arpa"}) | frozenset(
    {"id", "to", "at", "is", "it", "me", "in", "do", "as", "by", "no", "be", "my", "so", "am", "tv",
     "fm", "la", "ly", "im", "us"})

# Names that are not public but still say where something runs: private and reserved suffixes
# (RFC 6762 .local, RFC 8375 .home.arpa, RFC 6761 reserved names, common corporate suffixes).
PRIVATE_SUFFIXES = frozenset({"local", "internal", "corp", "lan", "intranet", "localhost",
                              "example", "test", "invalid"})

# Known development-host domains: `<site>.ddev.site` is a URL even when written bare.
DEV_HOST_DOMAINS = frozenset({"ddev.site", "lndo.site", "docksal.site", "platformsh.site",
                              "ngrok.app", "ngrok-free.app"})

# File extensions that are also TLDs (or reserved names): `settings.py`, `README.md`, `run.sh`,
# `mymodule.info` (Drupal 7), `mymodule.test` (Drupal 7 tests), `archive.zip`.
FILE_EXTENSIONS = frozenset({"py", "sh", "md", "pl", "pm", "rs", "cc", "so", "mk", "tf", "in", "ml",
                             "ps", "ai", "am", "ac", "mm", "ph", "gd", "cr", "sc", "st", "as", "zip",
                             "mov", "info", "test", "cl", "ch", "re", "ly", "gs", "sv"})
