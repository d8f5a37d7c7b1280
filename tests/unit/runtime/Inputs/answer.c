/* A shared object for SharedObjectLoaderTests: built twice, with ANSWER 3 and 5. */
int onepass_test_answer(void) { return ANSWER; }
