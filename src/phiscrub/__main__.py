import sys

from phiscrub.cli import main

sys.exit(main())
