# cmake -DPROGRAM=... -DMAN=... -DCOMPLETION=... -P write_program_docs.cmake
# The program's manual page (gzip -9n: no name or time stamp, as Debian's policy asks) and its
# bash completion, from the program itself (--man-page, --bash-completion).
execute_process(COMMAND ${PROGRAM} --man-page OUTPUT_FILE ${MAN} RESULT_VARIABLE man_status)
if(NOT man_status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --man-page failed (${man_status})")
endif()
execute_process(COMMAND gzip -9nf ${MAN} RESULT_VARIABLE gzip_status)
if(NOT gzip_status EQUAL 0)
  message(FATAL_ERROR "gzip ${MAN} failed (${gzip_status})")
endif()
execute_process(COMMAND ${PROGRAM} --bash-completion OUTPUT_FILE ${COMPLETION} RESULT_VARIABLE completion_status)
if(NOT completion_status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --bash-completion failed (${completion_status})")
endif()
