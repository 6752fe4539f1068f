/^    scripts\/lint\/  /a\    scripts/tests/        the tests of the checks
