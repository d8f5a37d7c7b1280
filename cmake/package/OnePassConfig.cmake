# The OnePass CMake package: find_package(OnePass) in a project built with
# CMAKE_CXX_COMPILER=<prefix>/bin/onepass++ (the same file serves the build
# tree and an install: everything is found relative to this file, so a moved
# install still works).
#
#   OnePass::sycl                          an interface target: compile and link
#                                          with -fsycl-sscp
#   add_sycl_to_target(TARGET <t> [SOURCES <src>...])
#                                          makes <t> a SYCL target (its sources
#                                          are compiled with -fsycl-sscp and it
#                                          links the OnePass runtime)
#   OnePass_CXX_COMPILER                   <prefix>/bin/onepass++
#   OnePass_VERSION                        (from OnePassConfigVersion.cmake)
cmake_minimum_required(VERSION 3.20)

get_filename_component(_onepass_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(OnePass_CXX_COMPILER "${_onepass_prefix}/bin/onepass++")
if(NOT EXISTS "${OnePass_CXX_COMPILER}")
  set(OnePass_FOUND FALSE)
  set(OnePass_NOT_FOUND_MESSAGE "OnePass: ${OnePass_CXX_COMPILER} does not exist (a broken install?)")
  return()
endif()

# A SYCL target's sources must be compiled by onepass++: say so plainly
# rather than fail later with an unknown -fsycl-sscp.
get_filename_component(_onepass_compiler "${CMAKE_CXX_COMPILER}" REALPATH)
get_filename_component(_onepass_expected "${OnePass_CXX_COMPILER}" REALPATH)
if(CMAKE_CXX_COMPILER AND NOT _onepass_compiler STREQUAL _onepass_expected)
  message(WARNING "OnePass: CMAKE_CXX_COMPILER is ${CMAKE_CXX_COMPILER}; SYCL targets need "
                  "-DCMAKE_CXX_COMPILER=${OnePass_CXX_COMPILER}")
endif()

if(NOT TARGET OnePass::sycl)
  add_library(OnePass::sycl INTERFACE IMPORTED GLOBAL)
  set_target_properties(OnePass::sycl PROPERTIES
    INTERFACE_COMPILE_OPTIONS -fsycl-sscp
    INTERFACE_LINK_OPTIONS -fsycl-sscp
    INTERFACE_COMPILE_FEATURES cxx_std_17)
endif()

# SOURCES is accepted for the interface other SYCL implementations share: with
# OnePass every source of the target is compiled the same single pass.
function(add_sycl_to_target)
  cmake_parse_arguments(_onepass "" "TARGET" "SOURCES" ${ARGN})
  if(NOT _onepass_TARGET)
    message(FATAL_ERROR "add_sycl_to_target: TARGET <name> is required")
  endif()
  if(NOT TARGET ${_onepass_TARGET})
    message(FATAL_ERROR "add_sycl_to_target: ${_onepass_TARGET} is not a target")
  endif()
  get_target_property(_onepass_type ${_onepass_TARGET} TYPE)
  if(_onepass_type STREQUAL "INTERFACE_LIBRARY")
    target_link_libraries(${_onepass_TARGET} INTERFACE OnePass::sycl)
  else()
    target_link_libraries(${_onepass_TARGET} PUBLIC OnePass::sycl)
  endif()
endfunction()

set(OnePass_FOUND TRUE)
