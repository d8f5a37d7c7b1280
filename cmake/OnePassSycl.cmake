# Building SYCL programs inside this project with the just-built onepass++,
# exactly as a user would run it.
add_custom_target(onepass-toolchain DEPENDS
  onepass++ onepass-clang-plugin onepass-rt onepass-jit onepass-headers onepass-builtins-cpu onepass-builtins-ptx onepass-backend-cuda onepass-kernels)

# onepass_add_sycl_executable(<name> SOURCES <src>... [FLAGS <flag>...] [LIBS <lib>...]
#                             [DEPENDS <file>...] [OUTPUT_DIR <dir>])
# Compiles and links <src> with `onepass++ -fsycl-sscp`; the program is
# <dir>/<name> (default <dir>: bin/ under the current binary directory, so the
# file never has the path of the target itself). DEPENDS lists headers whose
# changes must rebuild the program. LIBS go after the sources on the command line.
function(onepass_add_sycl_executable name)
  cmake_parse_arguments(ARG "" "OUTPUT_DIR" "SOURCES;FLAGS;LIBS;DEPENDS" ${ARGN})
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/bin)
  endif()
  set(sources)
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND sources ${abs})
  endforeach()
  set(output ${ARG_OUTPUT_DIR}/${name})
  add_custom_command(OUTPUT ${output}
    COMMAND ${ONEPASS_BIN_DIR}/onepass++ -fsycl-sscp ${ARG_FLAGS} ${ONEPASS_SANITIZE_PROGRAM_FLAGS} ${sources} ${ARG_LIBS}
            -o ${output}
    # File-level dependencies: a changed header, plugin or driver rebuilds the program.
    DEPENDS ${sources} ${ARG_DEPENDS} ${ONEPASS_COPIED_HEADERS} onepass-toolchain
            $<TARGET_FILE:onepass-clang-plugin> $<TARGET_FILE:onepass++>
    COMMENT "onepass++ -fsycl-sscp ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${output})
  set_property(TARGET ${name} PROPERTY ONEPASS_OUTPUT ${output})
endfunction()
