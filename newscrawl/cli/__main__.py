import sys

from newscrawl.cli import entry_point

sys.exit(entry_point())
