//! Try the module as `fray odds murdham` will run it: `cargo run --example odds -- damage d6`
//! (add `--json` for the JSON).

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    args.retain(|a| a != "--json");
    match murdham_odds::odds::parse_and_run(&args) {
        Ok((_, value)) if json => println!("{value:#}"),
        Ok((text, _)) => print!("{text}"),
        Err(e) => {
            eprintln!("fray odds murdham: {e}");
            std::process::exit(2);
        }
    }
}
