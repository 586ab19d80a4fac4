//! The `gatehouse` binary: its commands are in [`cli`]. The process starts here, not through
//! std's `main` (see `cli::start` for why).

// Under `cargo test` the test harness brings its own `main`.
#![cfg_attr(not(test), no_main)]

mod cli;

#[cfg(not(test))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    // The arguments are std's to read (`std::env::args_os`), as with its own start-up.
    cli::start::process(cli::gatehouse_main)
}
