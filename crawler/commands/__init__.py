"""Project commands (COMMANDS_MODULE): `crawl` with the spider's own exit status."""
