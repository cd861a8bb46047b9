# Run at every build of warptour-bench (cmake -P): writes OUT, the header
# that names the commit built ($WT_GIT_COMMIT, else git describe of SRC,
# "-dirty" with local changes), and rewrites it only when the commit changed, so that main.c is
# compiled again only then.  It runs at build time, not configure time, so
# that a build folder rebuilt without a configure still names its commit.
# WT_GIT_COMMIT in the environment comes first: a copy of the tree sent to
# another machine (scripts/gpu-check.sh) may carry a stale .git.
set(commit "$ENV{WT_GIT_COMMIT}")
if(NOT commit)
  execute_process(COMMAND git describe --always --dirty --abbrev=10
                  WORKING_DIRECTORY ${SRC}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
if(NOT commit)
  set(commit unknown)
endif()
set(text "#define WT_GIT_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
