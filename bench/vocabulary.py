"""Word pools for the synthetic corpus generator.

Large pools are the point: two fixtures only share a sentence skeleton when they draw the same
words for most slots, so each pool is big enough that a 10,000-fixture corpus stays free of
template reuse. Words are plain lowercase ASCII, never a secret-ish key (token, password, key),
never one of the linter's generic label words, and never carry a dot (no host-name look-alikes).
"""

NOUNS = tuple("""
abacus account adapter address agenda alcove almanac anchor annex antenna anthology apron archive
arena armchair atlas attic audience auditor author avenue awning backlog badge balcony ballot
banner barcode barrel basement basket batch beacon bench binder biography blanket blueprint
booklet bookshelf borrower bouquet boundary bracket branch breadcrumb bridge brochure bucket
budget bulletin bundle bureau button cabinet calendar camera candle canopy canvas caption
card carousel cartridge catalogue ceiling cellar census chapter charter checklist chronicle
circuit cistern citation clipboard clock closet cluster coaster collection column comment
compass concert corridor cottage counter courier courtyard cover crate crossing cupboard
curator curtain cushion dashboard deadline deposit desk diagram diary digest directory dispatch
district docket doorway drawer dropdown easel edition elevator ember envelope errand estimate
excerpt exhibit fallback fence festival filter fixture flag folder footer footnote forecast
fountain fragment frame gallery garden gateway gazette glossary gradient granary grid guestbook
guide hallway hamper handbook harbor harvest headline hedge heading helper hinge holding
horizon hourglass inbox index inventory invoice island itinerary jacket journal junction kettle
kiosk label ladder lantern laptop lattice ledger legend lending letter library lighthouse
limit lineup listing locker lobby logbook lounge magazine mailbox manifest manual margin
market marker meadow memo menu meridian migration milestone mirror monitor mosaic mural
museum narrative newsletter notebook notice novel orchard outline outpost overlay paddock
pamphlet panel pantry parcel pavilion payload pedestal pendulum periodical pillar pipeline
placard planner plaque platform playlist plaza pocket portal portfolio poster postcard
preview printer profile programme prompt quarry queue quiver railing ramp ranking reader
receipt recipe reel register reminder renewal report reservoir ribbon roster route runway
satchel scaffold schedule scroll season sequence shelf shipment shutter sidebar signpost
sketch slider snapshot spindle spreadsheet staircase stamp stencil storefront storyline
storytime subtitle summary survey switchboard syllabus tablet tapestry teaser template terrace
thesis thimble threshold thumbnail ticket timeline timetable toolbar topic tower tracker
trailer transcript trellis tributary trolley tunnel turnstile umbrella upload vault venue
verdict vestibule viewport village voucher wagon walkway wardrobe warehouse waypoint webhook
whiteboard widget windmill workshop wrapper yardstick zipper
""".split())

ADJECTIVES = tuple("""
absent abrupt accurate adjacent advanced ambiguous ample ancient annual archived awkward
backward balanced bare basic bespoke bitter blank bold borrowed bouncy brief brittle broad
bulky busy careful casual cautious central cheap chunky circular clumsy coarse compact
complete concise costly cozy crisp crooked crowded curious curly damp dated deep delicate
dense detailed dim direct distant dormant double dreary dusty eager early elaborate elegant
empty endless entire even exact faded faint familiar fancy feeble fierce filthy final fixed
flaky flat flimsy fluent foggy foreign formal fragile frantic fresh frozen fuzzy gentle giant
glossy graceful grainy grand greedy grim gritty hasty hazy heavy hidden hollow honest humble
hurried idle immense improper inactive informal initial intact invalid jagged jolly juicy
lanky large late lavish lazy lean legacy lengthy level lively lofty lonely loose loud lumpy
massive meager messy mild minor misty modest moist monthly muddy murky narrow nearby neat
nervous nightly noisy numb obscure obvious odd oily orphaned outdated overdue painful pale
partial patchy patient peculiar pending petty plain plush polished portable precise pristine
prompt proper proud quaint quick quiet ragged rapid rare raw recent regional reluctant remote
rigid ripe risky roomy rotten rough round rowdy rugged rustic sandy scarce scenic seasonal
serene shabby shaky shallow sharp shiny shrill silent silky skinny sleepy slender slim sloppy
slow smooth snug soggy solid sparse speedy spotless stale steady steep sticky stiff stray
stubborn sturdy subtle sudden sunny superb swift tangled tardy tedious tense thick thin
thorough tidy tiny tired tolerant tranquil tricky trivial uneven unkempt unlisted unsorted
unused upbeat urgent vacant vague vast velvet vivid wary weary weekly wobbly wooden worn
yearly young zealous
""".split())

# Regular verbs only, so the past tense and third person are derived by rule.
VERBS = tuple("""
accept adjust admire alter annotate append archive arrange assemble attach audit balance
bundle calibrate cancel capture catalogue certify chart check clamp clean clear collapse
collect combine compare compile confirm connect contain convert copy correct count cover
crawl crop curate debug declare decorate defer delay deliver detach detect divide document
double drag drain duplicate edit embed empty enable encode enlarge erase escort examine
exclude expand export extract fasten fetch filter flatten flip fold follow forward freeze
gather glue grade group guard handle harvest highlight hover import index inspect install
invert isolate join label launch level list load lock log mark mask measure mend merge
migrate mirror monitor mount move name nudge number observe offer open order outline pack
paint park patch pause peel pick pin plan plant polish post preview print probe protect
pull pump push queue record recycle reduce refresh reject relabel release reload remove
rename render reorder repair repeat replace request rescue reset resize restore retire
return reuse review revise rotate route sample save scan schedule score scroll seal select
separate settle shelve shift shorten sign skip slice sort split stack stamp staple start
stitch store stretch submit summon support suspend swap tag tally tidy trace track trim
tuck twist unlock unpack update upload verify visit wander warn wash watch weigh wrap
""".split())

ADVERBS = tuple("""
abruptly accidentally afterwards again already anxiously barely briefly calmly carefully
casually cautiously cheerfully clearly closely constantly correctly daily deliberately
directly eagerly early easily entirely eventually evidently exactly finally firmly formally
frankly freely frequently gently gradually happily hastily heavily honestly hourly instantly
largely lately lazily lightly loosely loudly manually merely mostly nearly neatly nightly
normally occasionally openly partly patiently politely promptly properly quickly quietly
randomly rapidly rarely readily recently regularly repeatedly roughly safely seldom silently
simply slightly slowly smoothly softly sometimes steadily strictly suddenly swiftly tightly
twice typically usually vaguely visibly warmly weekly wisely
""".split())

PREPOSITIONS = tuple("""
about above across after against along among around behind below beneath beside between
beyond despite during except inside near outside over past through throughout toward under
underneath until upon within without
""".split()) + ("next to", "instead of", "on top of", "ahead of", "in front of", "close to")

DETERMINERS = ("the", "the", "the", "a", "every", "each", "our", "this", "that", "some", "no",
               "any", "another", "one more", "their", "its", "my", "your", "either")

SUBJECTS = ("we", "I", "you", "they", "the team", "somebody", "nobody", "the night shift",
            "the editors", "our importer", "the front desk", "outreach", "the build", "the reviewer",
            "the scheduler", "staff", "the consortium", "everyone", "the previous owner", "marketing")

# Modals that agree with any subject (no "need to": "the build need to" is wrong).
MODALS = ("should", "must", "can", "might", "will", "would", "could", "may", "ought to", "had to",
          "needed to", "wanted to", "tried to", "forgot to", "planned to", "refused to", "used to")

CONNECTORS = ("because", "although", "so", "while", "after", "before", "unless", "since",
              "and then", "but", "whereas", "once", "until", "even though", "as soon as", "or else")

LINKING = ("is", "was", "seems", "looks", "stays", "became", "remains", "felt", "turned out",
           "appears", "sounded", "got")

OPENERS = ("Yesterday", "This morning", "Later", "Honestly", "For now", "Last week", "Meanwhile",
           "In practice", "Oddly", "By default", "On reflection", "Apparently", "Frankly", "Still",
           "Otherwise", "Right now", "At first", "Eventually", "Luckily", "Sadly")

# Capitalised place names: the template check masks them, so they vary freely.
PLACES = ("Ashgrove", "Cedar Row", "Elmfield", "Harbour Bend", "Millbrook", "Oakhurst", "Pinecrest",
          "Quarry Hill", "Riverside", "Stonegate", "Thornbury", "Willowmere", "Foxley", "Brackenridge")

SHORT_REPLIES = (
    "Sounds good.", "Done.", "Thanks.", "Go ahead.", "Yes, please.", "Not yet.", "Agreed.",
    "That works.", "Let me check.", "Good catch.", "Fair enough.", "Makes sense.", "Keep going.",
    "Perfect.", "Understood.", "Got it.", "Hold on.", "Try again.", "Much better.", "Okay.",
    "Right.", "Leave it.", "Ship it.", "Not quite.", "Close enough.", "Exactly.", "Noted.",
    "Please continue.", "All green.", "Still failing.", "No change.", "Looks fine.",
)
