from railgames.cli import main

raise SystemExit(main())
