/*
 * nicc-trim-test-suite.cc — packet trimming and the NIC's answer to it ("nicc-trim").
 */
