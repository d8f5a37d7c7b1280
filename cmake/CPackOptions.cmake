# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE): the .deb puts
# the tree under /opt/onepass, the .tar.gz at its top directory.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /opt/onepass)
else()
  set(CPACK_PACKAGING_INSTALL_PREFIX "/")
endif()
