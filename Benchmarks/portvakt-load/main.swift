// Written below.
