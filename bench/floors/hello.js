// The ceiling of the harness: a worker that does nothing.
export default {
  fetch() {
    return new Response('ok');
  },
};
