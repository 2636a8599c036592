"""Analysis built on the game protocol: bot-vs-bot matches and speed benchmarks."""
