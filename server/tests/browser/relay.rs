//! A TCP relay between one browser and `keyplan serve` that a test cuts and restores, as a
//! network drops and comes back (issue 38: DevTools' offline emulation leaves an open
//! WebSocket open, so a page never saw itself offline). Cut, the relay drops every connection
//! it carries, so the page sees its socket close, and refuses every new one (accepted and
//! closed at once, counted), so its reconnects fail; restored, it carries new connections
//! again.
//!
//! It runs on a thread of its own with its own tokio runtime, so it relays while the test's
//! runtime waits on the browser; dropping the [`Relay`] stops it and closes what it carries.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;

use tokio::net::{TcpSocket, TcpStream};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinSet;

/// What the test tells the relay's thread; each answers once it is done.
enum Command {
    Cut(oneshot::Sender<()>),
    Restore(oneshot::Sender<()>),
}

pub struct Relay {
    /// Where the browser connects.
    pub address: SocketAddr,
    commands: Option<mpsc::UnboundedSender<Command>>,
    refused: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Relay {
    /// A relay listening on `listen` that carries each connection to `upstream`.
    pub fn start(listen: SocketAddr, upstream: SocketAddr) -> Relay {
        let (commands, mut received) = mpsc::unbounded_channel();
        let (bound, bound_here) = std::sync::mpsc::channel();
        let refused = Arc::new(AtomicUsize::new(0));
        let counted = refused.clone();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime for the relay");
            runtime.block_on(async move {
                let listener = {
                    let socket = TcpSocket::new_v4().expect("a socket for the relay");
                    // The test's browser may have left connections in TIME_WAIT on it.
                    socket.set_reuseaddr(true).expect("SO_REUSEADDR");
                    socket.bind(listen).expect("the relay binds its address");
                    socket.listen(64).expect("the relay listens")
                };
                let _ = bound.send(listener.local_addr().expect("the relay's address"));
                let mut carried = JoinSet::new();
                let mut up = true;
                loop {
                    tokio::select! {
                        command = received.recv() => match command {
                            Some(Command::Cut(done)) => {
                                up = false;
                                // Dropping a carried connection's task closes both its ends.
                                carried.abort_all();
                                while carried.join_next().await.is_some() {}
                                let _ = done.send(());
                            }
                            Some(Command::Restore(done)) => {
                                up = true;
                                let _ = done.send(());
                            }
                            None => break,
                        },
                        accepted = listener.accept() => {
                            let Ok((mut browser, _)) = accepted else { continue };
                            if !up {
                                counted.fetch_add(1, Ordering::SeqCst);
                                drop(browser);
                                continue;
                            }
                            carried.spawn(async move {
                                let Ok(mut server) = TcpStream::connect(upstream).await else {
                                    return;
                                };
                                let _ = tokio::io::copy_bidirectional(&mut browser, &mut server).await;
                            });
                        }
                        // Reap the connections that ended on their own.
                        Some(_) = carried.join_next(), if !carried.is_empty() => {}
                    }
                }
            });
        });
        let address = bound_here
            .recv()
            .unwrap_or_else(|_| panic!("the relay could not listen on {listen}"));
        Relay {
            address,
            commands: Some(commands),
            refused,
            thread: Some(thread),
        }
    }

    /// `http://<address>`: the server's pages and API, through the relay.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Drops every connection the relay carries and refuses new ones until [`Relay::restore`].
    pub async fn cut(&self) {
        self.ask(Command::Cut).await;
    }

    /// Carries new connections again.
    pub async fn restore(&self) {
        self.ask(Command::Restore).await;
    }

    /// How many connections were refused while the relay was cut.
    pub fn refused(&self) -> usize {
        self.refused.load(Ordering::SeqCst)
    }

    async fn ask(&self, command: fn(oneshot::Sender<()>) -> Command) {
        let (done, answered) = oneshot::channel();
        self.commands
            .as_ref()
            .expect("the relay runs")
            .send(command(done))
            .unwrap_or_else(|_| panic!("the relay's thread ended"));
        answered.await.expect("the relay answers");
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        // Closing the channel ends the relay's loop; its runtime drops what it carries.
        self.commands.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
