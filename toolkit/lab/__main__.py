from toolkit.lab import main

raise SystemExit(main())
