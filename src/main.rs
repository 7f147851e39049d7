fn main() {
    println!("shoal");
}
