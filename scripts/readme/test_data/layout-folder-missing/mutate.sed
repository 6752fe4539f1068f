/^    scripts\/bench\/  /d
