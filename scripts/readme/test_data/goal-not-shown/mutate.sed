/^    make profile  /d
