import sys

from corpustools.cli import main

sys.exit(main())
