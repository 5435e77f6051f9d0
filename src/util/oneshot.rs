//! A single-threaded one-shot channel: a callback sends one value, a future receives it.
//! Used where the web platform completes work from its event loop (WebGPU buffer maps).

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

struct Slot<T> {
    value: Option<T>,
    waker: Option<Waker>,
    sender_dropped: bool,
}

pub struct Sender<T>(Rc<RefCell<Slot<T>>>);
pub struct Receiver<T>(Rc<RefCell<Slot<T>>>);

pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let slot = Rc::new(RefCell::new(Slot {
        value: None,
        waker: None,
        sender_dropped: false,
    }));
    (Sender(slot.clone()), Receiver(slot))
}

impl<T> Sender<T> {
    pub fn send(self, value: T) {
        self.0.borrow_mut().value = Some(value);
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let waker = {
            let mut slot = self.0.borrow_mut();
            slot.sender_dropped = true;
            slot.waker.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }
}

impl<T> Future for Receiver<T> {
    /// `None` when the sender was dropped without sending.
    type Output = Option<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut slot = self.0.borrow_mut();
        if let Some(v) = slot.value.take() {
            return Poll::Ready(Some(v));
        }
        if slot.sender_dropped {
            return Poll::Ready(None);
        }
        slot.waker = Some(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::task::Wake;

    struct Noop;
    impl Wake for Noop {
        fn wake(self: std::sync::Arc<Self>) {}
    }

    #[test]
    fn delivers_the_sent_value_or_none() {
        let waker = Waker::from(std::sync::Arc::new(Noop));
        let mut cx = Context::from_waker(&waker);
        let (tx, mut rx) = channel();
        assert_eq!(Pin::new(&mut rx).poll(&mut cx), Poll::Pending);
        tx.send(7);
        assert_eq!(Pin::new(&mut rx).poll(&mut cx), Poll::Ready(Some(7)));
        let (tx, mut rx) = channel::<i32>();
        drop(tx);
        assert_eq!(Pin::new(&mut rx).poll(&mut cx), Poll::Ready(None));
    }
}
