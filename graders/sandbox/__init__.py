"""Running untrusted submissions: warm zygotes that fork one isolated process each."""
