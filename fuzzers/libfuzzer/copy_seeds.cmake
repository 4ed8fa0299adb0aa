# Copies every module the corpus manifests list (CORPUS_DIR/
# corpus_manifest.txt and, when built, known_consumer_bugs_manifest.txt;
# lines "name<TAB>spv path<TAB>json path") into SEED_DIR as
# corpus_<name>.spv. Run at build time: the corpus is built by another
# target, and its manifest can change between builds.
#   cmake -DCORPUS_DIR=... -DSEED_DIR=... -P copy_seeds.cmake
file(MAKE_DIRECTORY ${SEED_DIR})
foreach(manifest corpus_manifest.txt known_consumer_bugs_manifest.txt)
  if(NOT EXISTS ${CORPUS_DIR}/${manifest})
    continue()
  endif()
  file(STRINGS ${CORPUS_DIR}/${manifest} lines)
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR NOT line MATCHES "\t")
      continue()
    endif()
    string(REPLACE "\t" ";" fields "${line}")
    list(GET fields 0 name)
    list(GET fields 1 spv)
    if(NOT IS_ABSOLUTE ${spv})
      set(spv ${CORPUS_DIR}/${spv})
    endif()
    if(EXISTS ${spv})
      file(COPY_FILE ${spv} ${SEED_DIR}/corpus_${name}.spv ONLY_IF_DIFFERENT)
    endif()
  endforeach()
endforeach()
