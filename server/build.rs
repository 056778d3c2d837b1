// `sqlx::migrate!` embeds the migrations when the crate compiles; without this, a changed or new
// migration under `migrations/` would not rebuild the crate and tests would run the old ones
// (sqlx's documented build script, `sqlx migrate build-script`).
fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
