"""Reference tokenization and chat rendering by Hugging Face transformers, for parity tests.

Reads one JSON request on stdin and writes one JSON answer on stdout; a list of requests is run
in order and answered with the list of answers (one interpreter start for a whole test file).
The requests:

  {"op": "train", "out_dir": str, "texts": [str], "vocab_size": int,
   "special_tokens": [str], "chat_template": str}
      Trains a byte-level BPE with the `tokenizers` library (not this project's trainer) and
      saves it with transformers' own `save_pretrained`, so the project can load a tokenizer
      that it did not write. Answers {"vocab_size": int}.

  {"op": "resave", "tokenizer_dir": str, "out_dir": str}
      Loads a tokenizer directory with AutoTokenizer and writes it again with save_pretrained,
      so a tokenizer this project wrote can be read back as transformers writes it.

  {"op": "render", "tokenizer_dir": str, "strings": [str],
   "chats": [{"messages": [...], "tools"?: [...], "add_generation_prompt": bool,
              "enable_thinking"?: bool}]}
      Loads the directory with AutoTokenizer and answers, for every string, its ids (no special
      tokens added), their decodings with and without special tokens, and each id decoded
      alone; for every chat, the text of apply_chat_template and the ids of
      apply_chat_template(tokenize=True).

Used by test/lm/transformers-parity.test.ts; needs transformers and tokenizers (the CI venv).
"""

import json
import sys


def train(request):
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.post_processor = processors.ByteLevel(trim_offsets=False)
    trainer = trainers.BpeTrainer(
        vocab_size=request["vocab_size"],
        special_tokens=request["special_tokens"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        min_frequency=2,
        show_progress=False,
    )
    tokenizer.train_from_iterator(request["texts"], trainer=trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
    )
    fast.chat_template = request["chat_template"]
    fast.save_pretrained(request["out_dir"])
    return {"vocab_size": tokenizer.get_vocab_size()}


def resave(request):
    from transformers import AutoTokenizer

    AutoTokenizer.from_pretrained(request["tokenizer_dir"]).save_pretrained(request["out_dir"])
    return {}


def chat_ids(tokenizer, chat, kwargs):
    out = tokenizer.apply_chat_template(
        chat["messages"],
        tools=chat.get("tools"),
        add_generation_prompt=chat["add_generation_prompt"],
        tokenize=True,
        **kwargs,
    )
    # transformers 5 answers a BatchEncoding; 4.x a plain list.
    if hasattr(out, "keys") and "input_ids" in out:
        out = out["input_ids"]
    return list(out)


def render(request):
    import transformers
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(request["tokenizer_dir"])
    encodings = []
    for text in request["strings"]:
        ids = tokenizer.encode(text, add_special_tokens=False)
        encodings.append(
            {
                "ids": ids,
                "decoded": tokenizer.decode(ids, skip_special_tokens=False, clean_up_tokenization_spaces=False),
                "decoded_skip": tokenizer.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False),
                "per_token": [tokenizer.decode([i], skip_special_tokens=False, clean_up_tokenization_spaces=False) for i in ids],
            }
        )
    chats = []
    for chat in request["chats"]:
        kwargs = {}
        if "enable_thinking" in chat:
            kwargs["enable_thinking"] = chat["enable_thinking"]
        text = tokenizer.apply_chat_template(
            chat["messages"],
            tools=chat.get("tools"),
            add_generation_prompt=chat["add_generation_prompt"],
            tokenize=False,
            **kwargs,
        )
        chats.append({"text": text, "ids": chat_ids(tokenizer, chat, kwargs)})
    return {
        "transformers_version": transformers.__version__,
        "tokenizer_class": type(tokenizer).__name__,
        "encodings": encodings,
        "chats": chats,
    }


def run(request):
    op = request.get("op")
    if op == "train":
        return train(request)
    if op == "resave":
        return resave(request)
    if op == "render":
        return render(request)
    raise SystemExit(f"unknown op {op!r}: expected 'train', 'resave' or 'render'")


def main():
    request = json.load(sys.stdin)
    answer = [run(r) for r in request] if isinstance(request, list) else run(request)
    json.dump(answer, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
